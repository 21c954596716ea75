/**
 * The JSON Schema engine on Node, Bun and Deno (`#json-schema-engine`'s `node` condition):
 * `@cfworker/json-schema` is required (its CommonJS build) the first time a schema is
 * compiled, not at import. A process that never compiles a JSON Schema — a server whose
 * tools all take zod shapes — never loads it, which keeps its cold start short.
 */
import { createRequire } from 'node:module';
import type { Validator } from '@cfworker/json-schema';

let validatorClass: typeof Validator | undefined;

/** `@cfworker/json-schema`'s `Validator`, loaded at the first call. */
export function loadValidator(): typeof Validator {
  validatorClass ??= (createRequire(import.meta.url)('@cfworker/json-schema') as { Validator: typeof Validator }).Validator;
  return validatorClass;
}
