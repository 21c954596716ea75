/**
 * The bridge between statemcp's {@link Transport} and the Transport interface of the official
 * MCP TypeScript SDK (1.x `@modelcontextprotocol/sdk` and 2.x `@modelcontextprotocol/client` /
 * `server` agree on it): `start()`, `send()`, `close()`, the `onmessage` / `onclose` /
 * `onerror` callbacks, `sessionId` and `setProtocolVersion`.
 *
 * Both directions, described structurally so the official SDK never becomes a dependency:
 * - {@link fromOfficialTransport}: a statemcp `Client` or `McpServer` over any official
 *   transport (its stdio or Streamable HTTP client transport, a host's own transport).
 * - {@link toOfficialTransport}: an official `Client` or `McpServer` (or a host built around
 *   the official interface) over any statemcp transport.
 *
 * Each side keeps its own contract: statemcp's sink hears `onClose` exactly once whoever
 * closed, the official side hears `onclose` exactly once, and neither side ever receives a
 * message the peer did not send (statemcp transports never forge a JSON-RPC error; see
 * `transport.ts`).
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { InboundContext, SendOptions, Transport, TransportCloseInfo, TransportSink } from './transport.js';

/** The structural shape of the official SDK's `Transport` (1.x and 2.x). */
export interface OfficialTransport {
  /** Starts receiving: messages arrive on `onmessage` from then on. */
  start(): Promise<void>;
  /** Sends one JSON-RPC message. */
  send(message: unknown, options?: OfficialSendOptions): Promise<void>;
  /** Closes the transport; `onclose` follows. */
  close(): Promise<void>;
  /** Set by the side using the transport: called with each message received. */
  // `any`: the official SDK assigns a handler typed with its own (generic) message type here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  /** Set by the side using the transport: called once the transport closed. */
  onclose?: (() => void) | undefined;
  /** Set by the side using the transport: called with an error that did not close it. */
  onerror?: ((error: Error) => void) | undefined;
  /** The session id, on transports that have one (Streamable HTTP). */
  sessionId?: string | undefined;
  /** Told the negotiated protocol version, on transports that send it (Streamable HTTP). */
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/**
 * The official SDK's `TransportSendOptions`. The bridge carries `relatedRequestId`; the
 * resumption fields belong to the official Streamable HTTP client and are never set by it.
 */
export interface OfficialSendOptions {
  /** The request a message belongs to (a response's, or a request sent while serving one). */
  relatedRequestId?: string | number | undefined;
  /** An official Streamable HTTP client's resumption token (never set by the bridge). */
  resumptionToken?: string | undefined;
  /** Told a new resumption token by an official Streamable HTTP client (never set by the bridge). */
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/** The official SDK's `MessageExtraInfo`, as far as the bridge reads and writes it. */
export interface OfficialMessageExtra {
  authInfo?: unknown;
  requestInfo?: { headers: Record<string, string | string[] | undefined>; url?: URL | undefined };
}

/** Options of {@link fromOfficialTransport}. */
export interface FromOfficialTransportOptions {
  /**
   * The peer is one endpoint that answers every request or closes the channel (the official
   * `StdioClientTransport`): see {@link Transport.answersUntilClosed}. Default `false`.
   */
  readonly answersUntilClosed?: boolean;
}

/** Lower-cased header names; a repeated header joined with `, ` (RFC 9110 §5.3). */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function contextOf(extra: OfficialMessageExtra | undefined, sessionId: string | undefined): InboundContext | undefined {
  const context: InboundContext = {};
  if (extra?.authInfo !== undefined) context.authInfo = extra.authInfo;
  if (extra?.requestInfo !== undefined) context.headers = flatHeaders(extra.requestInfo.headers);
  if (sessionId !== undefined) context.sessionId = sessionId;
  return Object.keys(context).length === 0 ? undefined : context;
}

function extraOf(context: InboundContext | undefined): OfficialMessageExtra | undefined {
  if (context === undefined) return undefined;
  const extra: OfficialMessageExtra = {};
  if (context.authInfo !== undefined) extra.authInfo = context.authInfo;
  const headers = context.http?.headers ?? context.headers;
  if (headers !== undefined) {
    extra.requestInfo = { headers: { ...headers } };
    if (context.http !== undefined) extra.requestInfo.url = new URL(context.http.url);
  }
  return Object.keys(extra).length === 0 ? undefined : extra;
}

class FromOfficial implements Transport {
  readonly #official: OfficialTransport;
  readonly answersUntilClosed: boolean;
  #sink: TransportSink | undefined;
  #closing = false;
  #closed = false;

  constructor(official: OfficialTransport, options: FromOfficialTransportOptions) {
    this.#official = official;
    this.answersUntilClosed = options.answersUntilClosed ?? false;
  }

  get sessionId(): string | undefined {
    return this.#official.sessionId;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.#sink !== undefined) throw new Error('the bridged transport was already started');
    this.#sink = sink;
    this.#official.onmessage = (message: unknown, extra?: OfficialMessageExtra) => {
      if (!this.#closed) sink.onMessage(message, contextOf(extra, this.#official.sessionId));
    };
    this.#official.onerror = (error: Error) => {
      if (!this.#closed) sink.onError?.(error);
    };
    this.#official.onclose = () => this.#finish({ initiator: this.#closing ? 'local' : 'remote' });
    await this.#official.start();
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.#closing || this.#closed) throw new ConnectionClosedError('the bridged official transport is closed');
    const related = options?.relatedRequestId;
    await this.#official.send(message, related === undefined ? undefined : { relatedRequestId: related });
  }

  setProtocolVersion(version: string): void {
    this.#official.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    if (this.#closing || this.#closed) return;
    this.#closing = true;
    try {
      await this.#official.close();
      this.#finish({ initiator: 'local' });
    } catch (error) {
      this.#finish({ initiator: 'error', error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  /** One `onClose` per transport, whether the official side reported its close or not. */
  #finish(info: TransportCloseInfo): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink?.onClose(info);
  }
}

class ToOfficial implements OfficialTransport {
  readonly #ours: Transport;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  #started = false;
  #closed = false;

  constructor(ours: Transport) {
    this.#ours = ours;
  }

  get sessionId(): string | undefined {
    return this.#ours.sessionId;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('the bridged transport was already started');
    this.#started = true;
    await this.#ours.start({
      onMessage: (value, context) => this.#deliver(value, extraOf(context)),
      onMalformed: (_text, reason) => this.onerror?.(new Error(`a frame that is not JSON: ${reason}`)),
      onError: (error) => this.onerror?.(error),
      onUndeliverable: (ids, error) =>
        // The official SDK has no way to hear this but a timeout; tell its error handler which requests it concerns.
        this.onerror?.(new Error(`requests ${ids.map(String).join(', ')} cannot be answered: ${error.message}`, { cause: error })),
      onClose: (info) => {
        if (this.#closed) return;
        this.#closed = true;
        if (info.error !== undefined) this.onerror?.(info.error);
        this.onclose?.();
      },
    });
  }

  /**
   * The official SDK's handlers take one message at a time: a JSON-RPC batch (MCP 2025-03-26,
   * Transports) is handed over element by element, and a value that is no JSON-RPC object
   * goes to `onerror`, as the official transports do with what fails their schema.
   */
  #deliver(value: unknown, extra: OfficialMessageExtra | undefined): void {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'object' && item !== null && (item as { jsonrpc?: unknown }).jsonrpc === '2.0') this.onmessage?.(item, extra);
      else this.onerror?.(new Error(`not a JSON-RPC 2.0 message: ${JSON.stringify(item)?.slice(0, 200)}`));
    }
  }

  async send(message: unknown, options?: OfficialSendOptions): Promise<void> {
    const related = options?.relatedRequestId;
    await this.#ours.send(message as JsonRpcMessage, related === undefined ? undefined : { relatedRequestId: related });
  }

  setProtocolVersion(version: string): void {
    this.#ours.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.#ours.close();
  }
}

/**
 * A statemcp transport over an official SDK transport: connect a statemcp `Client` or
 * `McpServer` to it.
 *
 * @example
 * ```ts
 * import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
 * import { fromOfficialTransport } from '@statemcp/protocol';
 *
 * const official = new StdioClientTransport({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
 * await client.connect(fromOfficialTransport(official, { answersUntilClosed: true }));
 * ```
 */
export function fromOfficialTransport(official: OfficialTransport, options: FromOfficialTransportOptions = {}): Transport {
  return new FromOfficial(official, options);
}

/**
 * An official SDK transport over a statemcp transport: connect an official `Client` or
 * `McpServer` (or any host built around the official interface) to it.
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { toOfficialTransport } from '@statemcp/protocol';
 * import { StdioServerTransport } from '@statemcp/stdio-transport';
 *
 * await new McpServer({ name: 'official', version: '1.0.0' }).connect(toOfficialTransport(new StdioServerTransport()));
 * ```
 */
export function toOfficialTransport(ours: Transport): OfficialTransport {
  return new ToOfficial(ours);
}
