/**
 * An in-memory transport pair for tests and for wiring a client and a server in one
 * process. Delivery is asynchronous (a microtask later) and every message is deep-copied
 * with JSON semantics (`transferJson`: what would have crossed a real wire), so the two sides
 * never share mutable objects; the frozen values the protocol repeats on every message
 * (`sealJson`: a 2026-07-28 request's identity `_meta`, a modern result's `serverInfo`) are
 * passed as they are and arrive frozen.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import { transferJson } from '../jsonrpc/clone-json.js';
import type { InboundContext, Transport, TransportCloseInfo, TransportSink } from './transport.js';

/** What every successful send returns: one settled promise, shared (nothing can change it). */
const SENT: Promise<void> = Promise.resolve();

/**
 * One end of an in-memory pair.
 *
 * @example
 * ```ts
 * const [clientSide, serverSide] = InMemoryTransport.createPair();
 * await server.connect(serverSide);
 * await client.connect(clientSide);
 * ```
 */
export class InMemoryTransport implements Transport {
  #peer: InMemoryTransport | undefined;
  #sink: TransportSink | undefined;
  #queue: { value: unknown; context: InboundContext | undefined }[] = [];
  #closed = false;
  #closeInfo: TransportCloseInfo | undefined;
  /** Context attached to every message this end delivers to its peer (e.g. fake auth info). */
  context: InboundContext | undefined;

  /** Creates two connected ends. */
  static createPair(): [InMemoryTransport, InMemoryTransport] {
    const a = new InMemoryTransport();
    const b = new InMemoryTransport();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Starts delivering the peer's messages to `sink`; a transport starts once. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#sink !== undefined) throw new Error('InMemoryTransport already started');
    this.#sink = sink;
    const pending = this.#queue;
    this.#queue = [];
    for (const item of pending) this.#deliver(item.value, item.context);
    if (this.#closeInfo !== undefined) sink.onClose(this.#closeInfo);
  }

  /**
   * Delivers `message` to the peer on a later microtask, as a real channel would. Resolves once
   * the copy is queued; rejects when closed or when the message cannot be copied (a bigint, a cycle).
   */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError('The in-memory transport is closed'));
    const peer = this.#peer;
    if (peer === undefined) return Promise.reject(new ConnectionClosedError('The in-memory transport has no peer'));
    let copy: unknown;
    try {
      copy = transferJson(message);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    peer.#enqueue(copy, this.context);
    return SENT;
  }

  /** Delivers a raw value to this end's own sink as if the peer had sent it (tests: bad input). */
  injectRaw(value: unknown): void {
    this.#enqueue(value, undefined);
  }

  /** Delivers a malformed text frame to this end's sink (tests: -32700). */
  injectMalformed(text: string): void {
    queueMicrotask(() => this.#sink?.onMalformed?.(text, 'Unexpected token'));
  }

  /** Closes both ends; the peer sees a remote close. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.#peer;
    this.#peer = undefined;
    queueMicrotask(() => {
      this.#signalClose({ initiator: 'local' });
      if (peer !== undefined && !peer.#closed) {
        peer.#closed = true;
        peer.#peer = undefined;
        peer.#signalClose({ initiator: 'remote' });
      }
    });
  }

  #signalClose(info: TransportCloseInfo): void {
    if (this.#closeInfo !== undefined) return;
    this.#closeInfo = info;
    this.#sink?.onClose(info);
  }

  #enqueue(value: unknown, context: InboundContext | undefined): void {
    if (this.#sink === undefined) {
      this.#queue.push({ value, context });
      return;
    }
    this.#deliver(value, context);
  }

  #deliver(value: unknown, context: InboundContext | undefined): void {
    queueMicrotask(() => {
      if (this.#closeInfo !== undefined) return;
      this.#sink?.onMessage(value, context);
    });
  }
}
