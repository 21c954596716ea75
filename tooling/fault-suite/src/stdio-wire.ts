/**
 * A raw stdio peer for fault tests: writes arbitrary bytes to a server's stdin and sorts
 * every line the server writes to stdout — responses by id, responses without a usable id
 * into a window the test drains, server-initiated messages aside, and non-JSON lines as
 * garbage. No statemcp client code is involved, so nothing is repaired on the way.
 */
import type { Readable, Writable } from 'node:stream';
import type { RequestId } from '@statemcp/protocol';
import { hasUnreadableId, isResponse } from './wire-oracle.js';

export class StdioWire {
  /** Responses with a string or number id, by id, in arrival order. */
  readonly byId = new Map<RequestId, Record<string, unknown>[]>();
  /** Lines that were not JSON (each is a protocol violation by the server). */
  readonly garbage: string[] = [];
  /** Every message in arrival order (responses and server-initiated ones). */
  readonly received: unknown[] = [];
  #window: Record<string, unknown>[] = [];
  #pending: Buffer[] = [];
  readonly #waiters = new Map<RequestId, () => void>();

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
  ) {
    stdout.on('data', (chunk: Buffer) => this.#read(chunk));
  }

  #read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#pending.push(chunk.subarray(start, nl));
      this.#line(Buffer.concat(this.#pending).toString('utf8'));
      this.#pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.garbage.push(text.slice(0, 200));
      return;
    }
    for (const message of Array.isArray(value) ? value : [value]) this.#message(message);
  }

  #message(message: unknown): void {
    this.received.push(message);
    if (!isResponse(message)) return;
    if (hasUnreadableId(message) || (typeof message.id !== 'string' && typeof message.id !== 'number')) {
      this.#window.push(message);
      return;
    }
    const id = message.id;
    const list = this.byId.get(id) ?? [];
    list.push(message);
    this.byId.set(id, list);
    this.#waiters.get(id)?.();
    this.#waiters.delete(id);
  }

  /** Writes raw text (add the newline yourself); resolves once it is handed to the pipe. */
  write(text: string): Promise<void> {
    return new Promise((resolve, reject) => this.stdin.write(text, (error) => (error ? reject(error) : resolve())));
  }

  /** Resolves when a response with `id` has arrived (at once if it has). */
  response(id: RequestId): Promise<Record<string, unknown>> {
    const first = (): Record<string, unknown> => this.byId.get(id)?.[0] ?? {};
    if (this.byId.has(id)) return Promise.resolve(first());
    return new Promise((resolve) => this.#waiters.set(id, () => resolve(first())));
  }

  /** Responses without a usable id since the last call. */
  drainWindow(): Record<string, unknown>[] {
    const window = this.#window;
    this.#window = [];
    return window;
  }
}
