/**
 * @statemcp/protocol/ajv — an Ajv-backed JSON Schema validator (with `ajv-formats`), to plug
 * into a client's or server's `jsonSchemaValidator` option in place of the built-in engine.
 * Needs the optional peer dependencies `ajv` and `ajv-formats`.
 */

export { createAjvValidator } from './ajv-validator.js';
export type { AjvValidatorOptions } from './ajv-validator.js';
