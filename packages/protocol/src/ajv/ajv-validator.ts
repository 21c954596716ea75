/**
 * A {@link JsonSchemaValidator} on Ajv, with the formats of `ajv-formats` (`email`,
 * `date-time`, `uri`, `uuid`, …) asserted. Use it where the built-in engine's format
 * coverage or Ajv's custom keywords matter; `ajv` and `ajv-formats` are optional peer
 * dependencies, loaded only by this subpath. The dialect follows `$schema` as with the
 * built-in engine (2020-12 when absent; 2019-09 and draft-07 each get their own Ajv
 * instance, created on first use); draft-04 is not offered by Ajv 8 and fails with a clear
 * reason, as does a schema Ajv cannot compile.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
// Through the package's own `internal` entry, not the module: the published `dist` then shares no
// chunk between this subpath and the main entry, which loads as two files (see tooling/scripts/bundle-dist.mjs).
import { jsonSchemaDialect } from '@statemcp/protocol/internal';
import type { JsonSchemaCheck, JsonSchemaDialect, JsonSchemaValidator } from '../json-schema/validator.js';

const MAX_REPORTED_ERRORS = 5;

/** Options of {@link createAjvValidator}. */
export interface AjvValidatorOptions {
  /** Assert the formats of `ajv-formats` (default true). */
  readonly formats?: boolean;
  /** Ajv options merged over the defaults (`strict: false`, `allErrors: true`, `logger: false`). */
  readonly ajv?: Options;
  /** Called once with each Ajv instance this validator creates (add keywords or formats here). */
  readonly configure?: (ajv: Ajv) => void;
}

type Engine = Ajv | Ajv2019 | Ajv2020;

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (errors === null || errors === undefined || errors.length === 0) return 'the value does not match the schema';
  return errors
    .slice(0, MAX_REPORTED_ERRORS)
    .map((error) => `#${error.instancePath}: ${error.message ?? error.keyword}`)
    .join('; ');
}

/**
 * Creates a JSON Schema validator backed by Ajv.
 *
 * @example
 * ```ts
 * import { createAjvValidator } from '@statemcp/protocol/ajv';
 *
 * const validator = createAjvValidator();
 * const check = validator.compile({ type: 'object', properties: { email: { type: 'string', format: 'email' } } });
 * check({ email: 'not an address' }); // '#/email: must match format "email"'
 * // const client = new Client(info, { jsonSchemaValidator: validator });
 * ```
 */
export function createAjvValidator(options: AjvValidatorOptions = {}): JsonSchemaValidator {
  const engines = new Map<JsonSchemaDialect, Engine>();
  const settings: Options = { strict: false, allErrors: true, logger: false, addUsedSchema: false, ...options.ajv };

  const engineFor = (dialect: JsonSchemaDialect): Engine | undefined => {
    let engine = engines.get(dialect);
    if (engine !== undefined) return engine;
    if (dialect === '2020-12') engine = new Ajv2020(settings);
    else if (dialect === '2019-09') engine = new Ajv2019(settings);
    else if (dialect === '7') engine = new Ajv(settings);
    else return undefined;
    if (options.formats ?? true) addFormats.default(engine);
    options.configure?.(engine);
    engines.set(dialect, engine);
    return engine;
  };

  return {
    compile(schema): JsonSchemaCheck {
      const dialect = jsonSchemaDialect(schema.$schema);
      const engine = dialect === undefined ? undefined : engineFor(dialect);
      if (engine === undefined) {
        const named = JSON.stringify(schema.$schema ?? dialect);
        return () => `unsupported JSON Schema dialect ${named}`;
      }
      // The dialect is settled; the instance need not look `$schema` up again.
      const { $schema: _dialect, ...body } = schema;
      let validate: ReturnType<Engine['compile']>;
      try {
        validate = engine.compile(body);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return () => `the schema could not be compiled: ${reason}`;
      }
      return (value) => (validate(value) ? undefined : describeErrors(validate.errors));
    },
  };
}
