/**
 * A live HTTP session as the server's session manager holds it: its transport and the
 * principal that opened it (requests of another principal get 404). The manager's `isBusy`
 * and `close` are methods, so an idle session holds no closures of its own for them.
 */
import type { LegacySseSessionTransport } from './legacy-sse-transport.js';
import type { ManagedSession, SessionEndReason } from './session-manager.js';
import type { HttpServerSessionTransport } from './session-transport.js';

/** The transport of a Streamable HTTP session or of a legacy HTTP+SSE one. */
export type AnySessionTransport = HttpServerSessionTransport | LegacySseSessionTransport;

export class HttpSession implements ManagedSession {
  readonly transport: AnySessionTransport;
  readonly principal: string | undefined;

  constructor(transport: AnySessionTransport, principal: string | undefined) {
    this.transport = transport;
    this.principal = principal;
  }

  isBusy(): boolean {
    return this.transport.isBusy();
  }

  /** Ends the session: a DELETE is the client's doing, eviction and shutdown the server's. */
  close(reason: SessionEndReason): void {
    void this.transport.terminate(reason === 'deleted' ? 'remote' : 'local', { reason });
  }
}
