/**
 * The POSTs a Streamable HTTP server answers without a session: every request of a stateless
 * revision (MCP 2026-07-28, Transports §Streamable HTTP: no `Mcp-Session-Id`, each request
 * stands alone) and, with `stateless: true`, every request of the session-era revisions. Each
 * POST is served on a transport of its own that ends with its last answer, or when the client
 * goes away (which cancels the request's handlers).
 *
 * The transport says it carries one exchange (`singleExchange`) at the request's version
 * (`assumedProtocolVersion`), and the user's `connect` (or `serverFor`) attaches a server to it
 * as to any transport. A statemcp `Server` (or `McpServer`) serves a 2026-07-28 exchange without
 * a session, from a dispatcher it built once (`Server.connect`); a session-era request of
 * `stateless: true` still gets a session assumed at its version. So `connect` runs per POST but
 * costs a function call: it is kept because it is where the user picks the server — a
 * `serverFor` that builds or picks a server per principal works unchanged.
 */
import { ErrorCode } from '@statemcp/protocol';
import { errorResponse, type HttpAnswer } from './http-response.js';
import type { SessionOpening } from './server-options.js';
import type { AnySessionTransport } from './http-session.js';
import { HttpServerSessionTransport, type AcceptedPost, type SessionTransportSettings } from './session-transport.js';

export class StatelessRequests {
  readonly #settings: SessionTransportSettings;
  readonly #connect: (transport: AnySessionTransport, opening: SessionOpening) => Promise<boolean>;
  /** Transports whose request is still being answered (closed with the server). */
  readonly #inFlight = new Set<HttpServerSessionTransport>();

  /** `connect` runs the user's `connect` on a transport; false (the transport closed) when it failed. */
  constructor(settings: SessionTransportSettings, connect: (transport: AnySessionTransport, opening: SessionOpening) => Promise<boolean>) {
    this.#settings = settings;
    this.#connect = connect;
  }

  /**
   * Serves one POST at `post.version`. A stateless `initialize` (`carriesInitialize`) runs the
   * handshake on its own; any other request is served in Operating at that version. `opening`
   * is who sent it, as `connect` (or `serverFor`) sees it.
   */
  async serve(post: AcceptedPost, carriesInitialize: boolean, opening: SessionOpening): Promise<HttpAnswer> {
    const transport = new HttpServerSessionTransport({ settings: this.#settings, requestVersion: post.version, carriesInitialize });
    if (!(await this.#connect(transport, opening))) return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not start a session');
    if (!transport.closed) this.#inFlight.add(transport);
    return transport.acceptPost(post);
  }

  /** A transport of this kind closed (its `onClosed`). */
  ended(transport: AnySessionTransport): void {
    if (transport instanceof HttpServerSessionTransport) this.#inFlight.delete(transport);
  }

  /** Ends every request still being answered (server shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.#inFlight].map((transport) => transport.terminate('local', { reason: 'server-closed' })));
  }
}
