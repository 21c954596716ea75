/**
 * Test doubles for the HTTP client transports: a scripted `fetch`, controllable SSE bodies,
 * a recording sink and a manual clock. Nothing here touches the network or real time.
 */
import type { Clock, RequestId, SessionExpiry, TimerHandle, TransportCloseInfo, TransportSink } from '@statemcp/protocol';

/** One request the fake fetch received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
}

export type FakeHandler = (request: RecordedRequest) => Response | Promise<Response>;

/** A `fetch` that answers from `handler` and records every request. */
export function fakeFetch(handler: FakeHandler): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      headers,
      body,
      signal: init?.signal ?? undefined,
    };
    requests.push(request);
    if (request.signal?.aborted === true) throw new DOMException('aborted', 'AbortError');
    return handler(request);
  };
  return { fetch: fn, requests };
}

export function jsonResponse(value: unknown, headers: Record<string, string> = {}, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function accepted(): Response {
  return new Response(null, { status: 202 });
}

export function status(code: number, body = ''): Response {
  return new Response(body.length > 0 ? body : null, { status: code });
}

/** An SSE body the test writes to and ends (or errors) at will. */
export class SseBody {
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly stream: ReadableStream<Uint8Array>;
  #encoder = new TextEncoder();
  closed = false;

  constructor(signal?: AbortSignal) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.closed = true;
      },
    });
    signal?.addEventListener('abort', () => this.error(new DOMException('aborted', 'AbortError')));
  }

  write(text: string): void {
    if (!this.closed) this.#controller.enqueue(this.#encoder.encode(text));
  }

  /** Writes one JSON-RPC message as an event, with an optional id. */
  message(value: unknown, id?: string): void {
    this.write(`${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(value)}\n\n`);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.#controller.close();
  }

  error(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.#controller.error(error);
  }

  response(headers: Record<string, string> = {}): Response {
    return new Response(this.stream, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } });
  }
}

/** A sink that records everything. */
export class RecordingSink implements TransportSink {
  readonly messages: unknown[] = [];
  readonly malformed: { text: string; reason: string }[] = [];
  readonly errors: Error[] = [];
  readonly closes: TransportCloseInfo[] = [];
  readonly undeliverable: { ids: readonly RequestId[]; error: Error }[] = [];
  /** What the transport reported each time the server forgot the session. */
  readonly expiries: SessionExpiry[] = [];
  /** How many times the transport reported that the server forgot the session. */
  get expired(): number {
    return this.expiries.length;
  }

  onMessage(value: unknown): void {
    this.messages.push(value);
  }
  onMalformed(text: string, reason: string): void {
    this.malformed.push({ text, reason });
  }
  onError(error: Error): void {
    this.errors.push(error);
  }
  onClose(info: TransportCloseInfo): void {
    this.closes.push(info);
  }
  onUndeliverable(ids: readonly RequestId[], error: Error): void {
    this.undeliverable.push({ ids, error });
  }
  onSessionExpired(expiry?: SessionExpiry): void {
    this.expiries.push(expiry ?? { replacement: false, answered: true });
  }
}

/** A protocol `Clock` whose timers fire only when the test says so; `now()` advances by each fired delay. */
export class ManualClock implements Clock {
  readonly timers = new Map<number, { ms: number; callback: () => void }>();
  /** Every delay ever requested, in order. */
  readonly delays: number[] = [];
  #next = 1;
  #now = 0;

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.#next++;
    this.timers.set(id, { ms, callback });
    this.delays.push(ms);
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    const id = (handle as { id?: unknown }).id;
    if (typeof id === 'number') this.timers.delete(id);
  }

  /** Fires every pending timer whose delay equals `ms` (or all when omitted). */
  fire(ms?: number): number {
    let fired = 0;
    for (const [id, timer] of [...this.timers]) {
      if (ms !== undefined && timer.ms !== ms) continue;
      this.timers.delete(id);
      this.#now += timer.ms;
      timer.callback();
      fired++;
    }
    return fired;
  }
}

/** Lets pending promise chains and stream reads run. */
export async function settle(rounds = 20): Promise<void> {
  for (let index = 0; index < rounds; index++) await new Promise((resolve) => setImmediate(resolve));
}

export const initializeRequest = {
  jsonrpc: '2.0' as const,
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

export const initializedNotification = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };

export function initializeResult(id: unknown, version = '2025-11-25'): unknown {
  return { jsonrpc: '2.0', id, result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } } };
}
