/**
 * The per-session Transport of the deprecated HTTP+SSE transport (2024-11-05, MCP 2024-11-05
 * basic/transports §HTTP with SSE),
 * for old clients. The client GETs the SSE endpoint; the first event is `endpoint` with the
 * URI to POST to (carrying `sessionId`); every server message is a `message` event on that
 * one stream; each client message is a POST answered with 202. The session lives exactly as
 * long as the SSE connection.
 */
import {
  ConnectionClosedError,
  TransportError,
  type InboundContext,
  type JsonRpcMessage,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';
import { encodeSseEvent } from '../shared/sse-encode.js';
import { SseConnection, type SseConnectionOptions } from './sse-connection.js';

/** @internal */
export class LegacySseSessionTransport implements Transport {
  readonly sessionId: string;
  readonly canSendRequests = true;
  readonly connection: SseConnection;
  #sink: TransportSink | undefined;
  #state: 'new' | 'started' | 'closed' = 'new';
  readonly #onClosed: (transport: LegacySseSessionTransport) => void;

  constructor(sessionId: string, endpoint: string, connection: SseConnectionOptions, onClosed: (transport: LegacySseSessionTransport) => void) {
    this.sessionId = sessionId;
    this.#onClosed = onClosed;
    this.connection = new SseConnection(connection);
    this.connection.write(encodeSseEvent({ event: 'endpoint', data: endpoint }));
    this.connection.onCancel = () => {
      void this.terminate('remote', { reason: 'client disconnected' });
    };
  }

  get started(): boolean {
    return this.#state === 'started';
  }

  isBusy(): boolean {
    return this.connection.open;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError('The HTTP+SSE session transport is closed');
    if (this.#state === 'started') throw new TransportError('The HTTP+SSE session transport is already started');
    this.#sink = sink;
    this.#state = 'started';
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === 'closed' || !this.connection.open) throw new ConnectionClosedError('The HTTP+SSE session transport is closed');
    // Waits while the client reads slower than the server sends; a stalled stream ends the session.
    const outcome = await this.connection.send(encodeSseEvent({ event: 'message', data: JSON.stringify(message) }));
    if (outcome === 'abandoned') await this.terminate('error', { reason: 'the client stopped reading the SSE stream' });
    if (outcome !== 'written') throw new ConnectionClosedError('The HTTP+SSE session transport is closed');
  }

  /** Hands one POSTed value to the session. */
  deliver(value: unknown, context: InboundContext): void {
    try {
      this.#sink?.onMessage(value, context);
    } catch (error) {
      this.#sink?.onError?.(error instanceof Error ? error : new TransportError(String(error)));
    }
  }

  async close(): Promise<void> {
    await this.terminate('local');
  }

  async terminate(initiator: TransportCloseInfo['initiator'] = 'local', details?: Record<string, unknown>): Promise<void> {
    if (this.#state === 'closed') return;
    const wasStarted = this.#state === 'started';
    this.#state = 'closed';
    this.connection.close();
    this.#onClosed(this);
    if (wasStarted) {
      const info: TransportCloseInfo = { initiator };
      if (details !== undefined) info.details = details;
      this.#sink?.onClose(info);
    }
  }
}
