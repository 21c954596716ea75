/**
 * The Streamable HTTP client transport's own state: its mode, what one POST came to, and the
 * messages held while a session the server forgot is being replaced (MCP 2025-11-25
 * basic/transports §Streamable HTTP, MCP 2025-11-25 basic/transports §Session Management).
 */
import { isJsonObject, type JsonRpcMessage, type TransportSink } from '@statemcp/protocol';
import { isNotificationWithMethod } from './message-kinds.js';
import type { SseClientTransport } from './sse-client.js';

/** The transport's own state. */
export type Mode =
  | { kind: 'new' }
  | { kind: 'streamable'; sink: TransportSink }
  | { kind: 'fallingBack'; sink: TransportSink; done: Promise<void> }
  | { kind: 'legacy'; sink: TransportSink; legacy: SseClientTransport }
  | { kind: 'closing'; sink: TransportSink | undefined; done: Promise<void> }
  | { kind: 'closed' };

/** What one POST came to. */
export type PostOutcome = { kind: 'done' } | { kind: 'sessionExpired'; sessionId: string } | { kind: 'legacyCandidate'; error: Error };

/** A message held while the server's forgotten session is being replaced. */
export interface HeldMessage {
  readonly message: JsonRpcMessage;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** The session the server forgot, while the session's machine runs the handshake again. */
export interface Expiry {
  readonly previousSessionId: string;
  readonly held: HeldMessage[];
}

/**
 * Holds a message until the new session is up. A `notifications/cancelled` for a request
 * that is held withdraws it instead: the request never reached any server, and the old
 * session's requests have no one left to cancel them.
 */
export function holdMessage(expiry: Expiry, message: JsonRpcMessage): Promise<void> {
  if (isNotificationWithMethod(message, 'notifications/cancelled')) {
    const params = 'params' in message ? message.params : undefined;
    const requestId = isJsonObject(params) ? params.requestId : undefined;
    const index = expiry.held.findIndex((held) => 'id' in held.message && held.message.id === requestId);
    if (index >= 0) expiry.held.splice(index, 1)[0]?.resolve();
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => expiry.held.push({ message, resolve, reject }));
}
