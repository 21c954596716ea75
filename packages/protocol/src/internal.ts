/**
 * `@statemcp/protocol/internal`: the seams between statemcp's own packages — envelope rules
 * the HTTP server shares with the session, the revision registry, the capability table, the
 * custom-method table, HTTP header and redirect helpers, bounded body reading — and what this
 * package's own `ajv` subpath takes from the main entry's modules (through this entry, so the
 * built `dist` shares no chunk between them; see tooling/scripts/bundle-dist.mjs). Not part of
 * the public API: names here may change in any release without a major version.
 */
export { classifyMessage, errorResponse, isRequestId } from './jsonrpc/messages.js';
export { cloneJson, sealJson } from './jsonrpc/clone-json.js';
export { batchRefusal, initializeInBatch, nestedBatch, requestIdInUse } from './jsonrpc/envelope-rules.js';
export { toWireError } from './errors/errors.js';
export { DEFAULT_HTTP_ASSUMED_VERSION, eraOf, proposeVersion } from './versions.js';
export { getRevision, hasFeature, registerRevision } from './revisions/registry.js';
export { resolveRequestVersion, servedStatelessVersions } from './revisions/resolve-version.js';
export type { UnsupportedVersionRefusal, VersionResolution } from './revisions/resolve-version.js';
export type { Revision } from './revisions/types.js';
export { compileJsonSchema, jsonSchemaDialect } from './json-schema/validator.js';
export { hasCapability } from './capabilities/table.js';
export { LEGACY_RESOURCE_URI_META_KEY } from './extensions/ui.js';
export { TASKS_NOTIFICATION_METHOD, declaresTasksExtension, isCreateTaskResult } from './extensions/tasks.js';
export { DIRECTORY_MIME_TYPE, SKILL_FILE_NAME, SKILL_LIMITS, SKILL_MARKDOWN_MIME_TYPE, SKILLS_METHODS, isSkillDigest } from './extensions/skills.js';
export { INPUT_REQUIRED_METHODS } from './session/input-rounds.js';
export { assertCustomMethodName, customSpecOf, validateCustomAsync } from './session/custom-methods.js';
export { declaredVersionOf } from './session/request-meta.js';
export { RecordTable } from './session/record-table.js';
export { PASS, parseUnlessPassed, parseWithSchema, verdictOf } from './session/schema-verdict.js';
export { isAuthInfo } from './transport/auth-info.js';
export {
  LAST_EVENT_ID_HEADER,
  METHOD_HEADER,
  NAME_HEADER,
  PARAM_HEADER_PREFIX,
  PROTOCOL_VERSION_HEADER,
  SESSION_ID_HEADER,
  decodeHeaderValue,
  encodeHeaderValue,
  nameParamOf,
} from './transport/http-headers.js';
export { guardRedirects, isRedirectStatus, redirectHop } from './transport/http-redirects.js';
export { readBoundedText, tooLargeError } from './transport/bounded-body.js';
export type { AdoptedSession } from './transport/transport.js';
