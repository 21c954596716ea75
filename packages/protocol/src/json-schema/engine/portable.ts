/**
 * The JSON Schema engine where `require` does not exist (browsers, workers:
 * `#json-schema-engine`'s `default` condition): `@cfworker/json-schema` imported with the
 * module, since the first compile is synchronous.
 */
import { Validator } from '@cfworker/json-schema';

/** `@cfworker/json-schema`'s `Validator`. */
export function loadValidator(): typeof Validator {
  return Validator;
}
