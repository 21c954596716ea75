/**
 * Who a middleware context stands for: the principal the ready-made middleware key on (rate
 * limits, audit records).
 */
import { type MiddlewareContext } from '@statemcp/protocol';
import { isAuthInfo } from '@statemcp/protocol/internal';

/**
 * The principal behind a message: the token's subject (else its client id) when the transport
 * authenticated the sender; else the HTTP peer's address; else the connection (stdio, memory:
 * one peer per connection). Prefixed by its source, so a subject never collides with an address.
 *
 * @example
 * ```ts
 * server.use((context, next) => {
 *   console.log(principalOf(context)); // 'sub:alice', 'ip:127.0.0.1' or 'session:server-1-k3v9x0'
 *   return next();
 * });
 * ```
 */
export function principalOf(context: MiddlewareContext): string {
  const auth = context.authInfo;
  if (isAuthInfo(auth)) return auth.subject !== undefined ? `sub:${auth.subject}` : `client:${auth.clientId}`;
  const address = context.http?.remoteAddress;
  if (address !== undefined) return `ip:${address}`;
  return `session:${context.transportSessionId ?? context.sessionId}`;
}
