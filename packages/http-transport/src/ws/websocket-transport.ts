/**
 * WebSocket transports: a **custom transport, not part of the MCP specification**. Both
 * sides negotiate the subprotocol `mcp` and exchange one JSON-RPC message per text frame;
 * there are no sessions, no resumption and no HTTP headers after the upgrade. Use it where
 * both ends are statemcp (or follow the same convention); use Streamable HTTP to talk to
 * arbitrary MCP peers.
 */
import {
  ConnectionClosedError,
  InvalidStateError,
  TransportError,
  type InboundContext,
  type JsonRpcMessage,
  type Transport,
  type TransportSink,
  systemClock,
  type Clock,
} from '@statemcp/protocol';
import { isAuthInfo } from '@statemcp/protocol/internal';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';

import { fromNodeRequest } from '../server/inbound.js';

import {
  DEFAULT_WEBSOCKET_CLOSE_TIMEOUT_MS,
  DEFAULT_WEBSOCKET_MAX_PAYLOAD,
  MCP_WEBSOCKET_SUBPROTOCOL,
  WebSocketChannel,
} from './websocket-channel.js';

/** Options shared by both WebSocket transports. */
export interface WebSocketTransportOptions {
  /** Bound of the closing handshake before the socket is terminated, in ms. Default 2000. */
  closeTimeoutMs?: number;
  /** Timers: the protocol `Clock`; tests pass a `SimulatedClock`. */
  clock?: Clock;
}

/** Options of {@link WebSocketServerTransport}. */
export interface WebSocketServerTransportOptions extends WebSocketTransportOptions {
  /**
   * The HTTP upgrade request of the socket (`wss.on('connection', (socket, request) => …)`).
   * Its method, URL, headers and remote address reach every handler as `context.http`;
   * without it handlers see no HTTP request. {@link createWebSocketServer} passes it.
   */
  request?: IncomingMessage;
  /**
   * What the upgrade's authentication produced (`authenticate` or `authorization`): handed to
   * every handler as `context.authInfo`, as over HTTP. {@link createWebSocketServer} passes it.
   * When it is an `AuthInfo` with `expiresAt`, the connection is closed then (code 1008): over
   * HTTP each request shows its token again, a WebSocket only once, at the upgrade.
   */
  authInfo?: unknown;
  /** The principal this connection acts for (the authorization layer's `principalOf`). */
  principal?: string | undefined;
  /**
   * Checks each inbound message once it is parsed (per-method and per-tool scopes): a refused
   * request is answered with this error reply and never reaches the session; a refused
   * notification is dropped.
   */
  authorize?: (message: unknown) => Promise<JsonRpcMessage | JsonRpcMessage[] | undefined> | undefined;
}

/** Options of {@link WebSocketClientTransport}. */
export interface WebSocketClientTransportOptions extends WebSocketTransportOptions {
  /** Extra headers for the upgrade request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** Bound of the opening handshake, in ms. Default 10000. */
  handshakeTimeoutMs?: number;
  /** Largest accepted frame in bytes. Default 4 MiB. */
  maxPayload?: number;
  /** Extra `ws` client options (TLS, agent, …); the subprotocol and the options above win. */
  wsOptions?: WebSocket.ClientOptions;
}

type ClientState =
  | { kind: 'new' }
  | { kind: 'connecting'; socket: WebSocket }
  | { kind: 'open'; channel: WebSocketChannel }
  | { kind: 'closed' };

/**
 * Client side of the WebSocket transport (custom, non-spec; see the module comment).
 *
 * @example
 * ```ts
 * import { Client } from '@statemcp/client';
 * import { WebSocketClientTransport } from '@statemcp/http-transport/ws';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new WebSocketClientTransport('ws://127.0.0.1:3001/mcp'));
 * console.log(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }));
 * await client.close();
 * ```
 */
export class WebSocketClientTransport implements Transport {
  readonly #url: URL;
  readonly #options: WebSocketClientTransportOptions;
  #state: ClientState = { kind: 'new' };
  readonly canSendRequests = true;
  /**
   * The server at the other end of the socket answers every request or closes it (like a child
   * process on stdio): a client's 2026-07-28 discovery waits for its answer instead of taking a
   * slow server for a legacy one after `discoveryTimeoutMs`.
   */
  readonly answersUntilClosed = true;

  constructor(url: URL | string, options: WebSocketClientTransportOptions = {}) {
    this.#url = new URL(url);
    if (this.#url.protocol !== 'ws:' && this.#url.protocol !== 'wss:') {
      throw new RangeError(`A WebSocket URL must use ws: or wss:, got ${this.#url.protocol}`);
    }
    this.#options = options;
  }

  /** Connects and resolves once the socket is open with the `mcp` subprotocol. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#state.kind !== 'new') throw new InvalidStateError('WebSocketClientTransport was already started', this.#state.kind);
    const socket = new WebSocket(this.#url, [MCP_WEBSOCKET_SUBPROTOCOL], {
      ...this.#options.wsOptions,
      handshakeTimeout: this.#options.handshakeTimeoutMs ?? 10_000,
      maxPayload: this.#options.maxPayload ?? DEFAULT_WEBSOCKET_MAX_PAYLOAD,
      ...(this.#options.headers !== undefined && { headers: this.#options.headers }),
    });
    this.#state = { kind: 'connecting', socket };
    // The channel listens from the first moment, so no frame is missed between 'open' and
    // the moment `start()` resolves.
    const channel = new WebSocketChannel(
      socket,
      this.#options.closeTimeoutMs ?? DEFAULT_WEBSOCKET_CLOSE_TIMEOUT_MS,
      this.#options.clock ?? systemClock,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const onOpen = (): void => {
          cleanup();
          resolve();
        };
        const onError = (error: Error): void => {
          cleanup();
          reject(new TransportError(`WebSocket connection to ${this.#url.href} failed: ${error.message}`, { cause: error }));
        };
        const onUnexpected = (_request: unknown, response: { statusCode?: number }): void => {
          cleanup();
          socket.terminate();
          reject(new TransportError(`WebSocket upgrade to ${this.#url.href} was refused with HTTP ${response.statusCode ?? '?'}`));
        };
        const onClose = (): void => {
          cleanup();
          reject(new ConnectionClosedError('The WebSocket transport was closed while connecting'));
        };
        const cleanup = (): void => {
          socket.off('open', onOpen);
          socket.off('error', onError);
          socket.off('unexpected-response', onUnexpected);
          socket.off('close', onClose);
        };
        socket.on('open', onOpen);
        socket.on('error', onError);
        socket.on('unexpected-response', onUnexpected);
        socket.on('close', onClose);
      });
    } catch (error) {
      this.#state = { kind: 'closed' };
      socket.terminate();
      throw error;
    }
    if (this.#state.kind !== 'connecting' || !channel.isOpen) {
      socket.terminate();
      throw new ConnectionClosedError('The WebSocket transport was closed while connecting');
    }
    this.#state = { kind: 'open', channel };
    void channel.closed.then(() => {
      this.#state = { kind: 'closed' };
    });
    channel.attach(sink);
  }

  /** Sends one message as one text frame. */
  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#state.kind !== 'open') throw new ConnectionClosedError('The WebSocket transport is not open');
    return this.#state.channel.send(message);
  }

  /** Graceful close (Close frame, bounded wait, then terminate). Idempotent. */
  async close(): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'open':
        return state.channel.close();
      case 'connecting':
        this.#state = { kind: 'closed' };
        state.socket.terminate();
        return;
      case 'new':
        this.#state = { kind: 'closed' };
        return;
      case 'closed':
        return;
    }
  }

  /** Forceful close: the socket is destroyed without a closing handshake. */
  async terminate(): Promise<void> {
    const state = this.#state;
    if (state.kind === 'open') return state.channel.terminate();
    return this.close();
  }
}

/**
 * Server side of the WebSocket transport for one accepted `ws` socket (custom, non-spec).
 * Usually created by {@link createWebSocketServer}; wrap sockets yourself when you run
 * your own `WebSocketServer`.
 *
 * @example
 * ```ts
 * import { WebSocketServer } from 'ws';
 * import { McpServer } from '@statemcp/server';
 * import { WebSocketServerTransport } from '@statemcp/http-transport/ws';
 *
 * const wss = new WebSocketServer({ port: 3001, host: '127.0.0.1', handleProtocols: () => 'mcp' });
 * wss.on('connection', (socket, request) => {
 *   const server = new McpServer({ name: 'demo', version: '1.0.0' });
 *   void server.connect(new WebSocketServerTransport(socket, { request }));
 * });
 * ```
 */
export class WebSocketServerTransport implements Transport {
  readonly #socket: WebSocket;
  readonly #channel: WebSocketChannel;
  readonly #authorize: WebSocketServerTransportOptions['authorize'];
  #started = false;
  readonly canSendRequests = true;
  /** The upgrade's auth info (`undefined` without authentication). */
  readonly authInfo: unknown;
  /** The principal this connection acts for (`undefined` without one). */
  readonly principal: string | undefined;

  /** Wraps `socket` at once: frames arriving before `start()` are queued, not lost. */
  constructor(socket: WebSocket, options: WebSocketServerTransportOptions = {}) {
    this.#socket = socket;
    this.authInfo = options.authInfo;
    this.principal = options.principal;
    this.#authorize = options.authorize;
    const http = options.request === undefined ? undefined : fromNodeRequest(options.request).requestInfo();
    const context: InboundContext | undefined =
      http === undefined && options.authInfo === undefined
        ? undefined
        : {
            ...(http === undefined ? {} : { headers: http.headers, http }),
            ...(options.authInfo === undefined ? {} : { authInfo: options.authInfo }),
          };
    const clock = options.clock ?? systemClock;
    this.#channel = new WebSocketChannel(socket, options.closeTimeoutMs ?? DEFAULT_WEBSOCKET_CLOSE_TIMEOUT_MS, clock, context);
    if (isAuthInfo(options.authInfo) && options.authInfo.expiresAt !== undefined) {
      const remainingMs = Math.max(0, options.authInfo.expiresAt * 1000 - Date.now());
      const timer = clock.setTimeout(() => void this.#channel.close(1008, 'access token expired'), remainingMs);
      void this.#channel.closed.then(() => clock.clearTimeout(timer));
    }
  }

  /** Begins delivery (replaying queued frames). Rejects when the socket already closed. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#started) throw new InvalidStateError('WebSocketServerTransport was already started', 'started');
    if (!this.#channel.isOpen) throw new ConnectionClosedError('The WebSocket is not open');
    this.#started = true;
    this.#channel.attach(this.#authorize === undefined ? sink : this.#authorizingSink(sink, this.#authorize));
  }

  /**
   * `sink` behind the per-message check: a message the check refuses never reaches it; a
   * refused request is answered with the check's error reply. Messages the check lets through
   * keep their order relative to each other.
   */
  #authorizingSink(sink: TransportSink, authorize: NonNullable<WebSocketServerTransportOptions['authorize']>): TransportSink {
    const guarded: TransportSink = {
      onMessage: (value, context) => {
        const refusal = authorize(value);
        if (refusal === undefined) {
          sink.onMessage(value, context);
          return;
        }
        void refusal.then((reply) => (reply === undefined ? undefined : this.#channel.send(reply))).catch(() => undefined);
      },
      onClose: (info) => sink.onClose(info),
    };
    if (sink.onMalformed !== undefined) guarded.onMalformed = (text, reason) => sink.onMalformed?.(text, reason);
    if (sink.onError !== undefined) guarded.onError = (error) => sink.onError?.(error);
    return guarded;
  }

  /** Sends one message as one text frame. */
  async send(message: JsonRpcMessage): Promise<void> {
    if (!this.#started) throw new InvalidStateError('WebSocketServerTransport is not started', 'new');
    return this.#channel.send(message);
  }

  /** Graceful close (Close frame, bounded wait, then terminate). Idempotent. */
  async close(): Promise<void> {
    if (!this.#started) {
      this.#socket.terminate();
      return;
    }
    return this.#channel.close();
  }

  /** Forceful close. */
  async terminate(): Promise<void> {
    if (!this.#started) {
      this.#socket.terminate();
      return;
    }
    return this.#channel.terminate();
  }
}
