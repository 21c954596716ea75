/**
 * One open SSE *connection*: a web `Response` whose body is a `ReadableStream` the server
 * writes into. A connection is not a logical stream: a logical stream (one POST's replies,
 * or the standalone GET stream) can live across several connections when the client
 * resumes with `Last-Event-ID` (digest §5.2).
 *
 * The client going away shows up as the stream's `cancel` (the node:http front door cancels
 * the body reader when the socket closes; Bun, Deno and workers do the same for fetch
 * handlers), reported once through `onCancel`.
 */
import { SSE_RESPONSE_HEADERS, encodeSseComment } from '../shared/sse-encode.js';

const encoder = new TextEncoder();

export class SseConnection {
  readonly response: Response;
  /** Called once when the client disconnects (not when the server closes the connection). */
  onCancel: (() => void) | undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #open = true;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(headers: Record<string, string> = {}, keepAliveMs = 0) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        if (!this.#open) return;
        this.#stop();
        this.onCancel?.();
      },
    });
    this.response = new Response(body, { status: 200, headers: { ...SSE_RESPONSE_HEADERS, ...headers } });
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.write(encodeSseComment()), keepAliveMs);
      this.#keepAlive.unref();
    }
  }

  /** True until the server closed it or the client went away. */
  get open(): boolean {
    return this.#open;
  }

  /** Writes an encoded block. Returns false (and writes nothing) once closed. */
  write(block: string): boolean {
    if (!this.#open || this.#controller === undefined) return false;
    try {
      this.#controller.enqueue(encoder.encode(block));
      return true;
    } catch {
      this.#stop();
      return false;
    }
  }

  /** Ends the connection from the server side. Idempotent; does not call `onCancel`. */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller?.close();
    } catch {
      // already errored or closed by the consumer
    }
  }

  #stop(): void {
    this.#open = false;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}
