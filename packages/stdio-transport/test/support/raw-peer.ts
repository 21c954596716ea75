/**
 * A minimal stand-in for the session runner in transport tests: numbers requests, routes
 * responses by id, and rejects every pending request with `ConnectionClosedError` (carrying
 * the transport's close details) when the transport closes — what the real session does.
 */
import {
  ConnectionClosedError,
  JsonRpcError,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

export class RawPeer implements TransportSink {
  readonly unsolicited: unknown[] = [];
  readonly malformed: Array<{ text: string; reason: string }> = [];
  readonly errors: Error[] = [];
  readonly closed: Promise<TransportCloseInfo>;
  closeInfo: TransportCloseInfo | undefined;
  closeCount = 0;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #resolveClosed: (info: TransportCloseInfo) => void = () => undefined;
  #malformedWaiters: Array<() => void> = [];

  constructor(readonly transport: Transport) {
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  onMessage(value: unknown): void {
    const message = value as { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
    const pending = typeof message.id === 'number' ? this.#pending.get(message.id) : undefined;
    if (pending === undefined || typeof message.id !== 'number') {
      this.unsolicited.push(value);
      return;
    }
    this.#pending.delete(message.id);
    if (message.error !== undefined) pending.reject(new JsonRpcError(message.error.code, message.error.message));
    else pending.resolve(message.result ?? {});
  }

  onMalformed(text: string, reason: string): void {
    this.malformed.push({ text, reason });
    const waiters = this.#malformedWaiters;
    this.#malformedWaiters = [];
    for (const wake of waiters) wake();
  }

  onError(error: Error): void {
    this.errors.push(error);
  }

  onClose(info: TransportCloseInfo): void {
    this.closeCount += 1;
    this.closeInfo = info;
    const error = new ConnectionClosedError(`Connection closed (${info.initiator})`, {
      cause: info.error,
      ...(info.details === undefined ? {} : { details: info.details }),
    });
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#resolveClosed(info);
  }

  /** Sends a request and resolves with its result. */
  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.#nextId++;
    const response = new Promise<Record<string, unknown>>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    await this.transport.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return (await response) as T;
  }

  /** Resolves once at least `count` malformed lines arrived. */
  async waitForMalformed(count: number): Promise<void> {
    while (this.malformed.length < count) await new Promise<void>((resolve) => this.#malformedWaiters.push(resolve));
  }

  get pendingCount(): number {
    return this.#pending.size;
  }
}
