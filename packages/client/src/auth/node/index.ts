/**
 * @statemcp/client/auth/node — the Node-only parts of OAuth for CLI apps: the loopback
 * redirect listener and a file store.
 */
export { loopbackAuthorization } from './loopback.js';
export type { LoopbackAuthorization, LoopbackAuthorizationOptions } from './loopback.js';
export { FileOAuthStore } from './file-store.js';
