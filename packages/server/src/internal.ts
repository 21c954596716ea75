/**
 * `@statemcp/server/internal`: what the server's own subpaths (`skills`, `logging`, `compose`)
 * use from the main entry's modules beyond its public names. Not part of the public API: names
 * here may change in any release without a major version.
 *
 * The subpaths import these, and the public ones, through the package's name rather than the
 * modules themselves, so the built `dist` shares no chunk between a subpath and the main entry:
 * a server that imports only `@statemcp/server` loads two files of it (see
 * tooling/scripts/bundle-dist.mjs).
 */
export { completeResult } from './caching.js';
export { isLoggingLevel, passesLevel } from './logging-levels.js';
export { targetOf } from './middleware/audit-log.js';
export { paginate } from './pagination.js';
export { LazyViewer, visibilityRule } from './visibility.js';
