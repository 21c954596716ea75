/**
 * Ordered frame writing with backpressure, shared by both stdio transports.
 *
 * Frames are written in call order. When the stream's buffer is full (`write()` returned
 * false) later frames wait in a queue until `'drain'`, so a fast sender and a slow reader do
 * not grow the stream's own buffer without bound. Each `write()` promise settles when the
 * stream has handed that frame to the OS (its write callback), or rejects when the stream
 * fails or the writer is shut.
 *
 * One write is in flight at a time. The frames of one tick are joined: the first frame
 * queued while no write is in flight arms one `process.nextTick`, which writes every frame
 * queued by then (the replies that one read of many concurrent requests produced, in its
 * microtasks) in one system call. Frames that arrive while a write is in flight are joined
 * and written together when its callback runs. Joining stops at {@link BATCH_BYTES}. A pipe
 * with room completes a write at once and Node runs its callback on `process.nextTick`, so a
 * burst ends with its tick, and a message costs no timer of its own and at most one tick.
 * Writing the first frame at once instead sent it alone: with 64 requests in flight, two
 * writes per burst and a peer woken for one message.
 *
 * A stream that fails (EPIPE when the reader died, a destroyed stream) fails the writer at
 * once: every queued and in-flight frame rejects and {@link FrameWriter.whenIdle} resolves,
 * so nobody waits for a `'drain'` that will never come.
 */
import type { Writable } from 'node:stream';

/** The most characters joined into one write. */
const BATCH_BYTES = 64 * 1024;

interface QueuedFrame {
  data: string;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class FrameWriter {
  readonly #stream: Writable;
  readonly #toError: (cause: unknown) => Error;
  /** FIFO with a moving head, so dequeuing is O(1); slots already taken are cleared. */
  #queue: Array<QueuedFrame | undefined> = [];
  #head = 0;
  #blocked = false;
  /** The batch handed to the stream whose write callback has not run yet: later frames wait for it. */
  #inFlight: QueuedFrame[] | undefined;
  /** Set by {@link FrameWriter.fail}: the failure's error, built on first need and then reused. */
  #closed: (() => Error) | undefined;
  #ending = false;
  #idleWaiters: Array<() => void> = [];
  /** A `process.nextTick` is armed to write what the current tick queued. */
  #flushArmed = false;

  /** @param toError turns a stream failure (EPIPE, destroyed stream) into the error callers see. */
  constructor(stream: Writable, toError: (cause: unknown) => Error) {
    this.#stream = stream;
    this.#toError = toError;
    stream.on('drain', this.#onDrain);
    stream.on('error', this.#onStreamError);
  }

  /** Frames queued or written but not yet confirmed by the stream. */
  get pending(): number {
    return this.#queue.length - this.#head + (this.#inFlight?.length ?? 0);
  }

  write(data: string): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed());
    if (this.#ending) return Promise.reject(this.#toError(new Error('The stream is being closed')));
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ data, resolve, reject });
      if (this.#inFlight === undefined && !this.#flushArmed) {
        this.#flushArmed = true;
        process.nextTick(this.#flush);
      }
    });
  }

  /** Resolves once every frame accepted so far is confirmed or rejected. */
  whenIdle(): Promise<void> {
    if (this.pending === 0 || this.#closed !== undefined) return Promise.resolve();
    return new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Writes what is queued, then ends the stream. Later writes reject. */
  end(): void {
    if (this.#ending) return;
    this.#ending = true;
    this.#maybeEnd();
  }

  /**
   * Rejects every queued and in-flight frame and refuses later writes, with the error `reason`
   * builds. It is built only when a frame or a later write needs it, once: the usual close has
   * nothing pending, and an error costs its stack trace. Does not touch the stream.
   */
  fail(reason: () => Error): void {
    if (this.#closed !== undefined) return;
    let error: Error | undefined;
    const closed = (): Error => (error ??= reason());
    this.#closed = closed;
    this.#stream.off('drain', this.#onDrain);
    const queued = this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    const inFlight = this.#inFlight ?? [];
    this.#inFlight = undefined;
    for (const frame of inFlight) frame.reject(closed());
    for (const frame of queued) frame?.reject(closed());
    this.#releaseIdleWaiters();
  }

  readonly #onStreamError = (error: unknown): void => {
    this.fail(() => this.#toError(error));
  };

  readonly #flush = (): void => {
    this.#flushArmed = false;
    this.#pump();
  };

  readonly #onDrain = (): void => {
    this.#blocked = false;
    this.#pump();
  };

  /** Takes the queued frames up to BATCH_BYTES (at least one). */
  #take(): QueuedFrame[] {
    const batch: QueuedFrame[] = [];
    let size = 0;
    while (this.#head < this.#queue.length) {
      const frame = this.#queue[this.#head];
      if (frame !== undefined && batch.length > 0 && size + frame.data.length > BATCH_BYTES) break;
      this.#queue[this.#head] = undefined;
      this.#head += 1;
      if (frame === undefined) continue;
      batch.push(frame);
      size += frame.data.length;
    }
    return batch;
  }

  #pump(): void {
    while (this.#inFlight === undefined && !this.#blocked && this.#closed === undefined && this.#head < this.#queue.length) {
      const batch = this.#take();
      if (batch.length === 0) continue;
      this.#inFlight = batch;
      const data = batch.length === 1 ? (batch[0] as QueuedFrame).data : batch.map((frame) => frame.data).join('');
      let accepted: boolean;
      try {
        accepted = this.#stream.write(data, (error) => this.#written(batch, error));
      } catch (error) {
        this.#inFlight = undefined;
        for (const frame of batch) frame.reject(this.#toError(error));
        continue;
      }
      if (!accepted) this.#blocked = true;
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#maybeEnd();
    this.#notifyIdle();
  }

  /** The stream's callback for `batch`: settles its frames, then writes what queued meanwhile. */
  #written(batch: QueuedFrame[], error: Error | null | undefined): void {
    if (this.#inFlight !== batch) return; // already rejected by fail()
    this.#inFlight = undefined;
    for (const frame of batch) {
      if (error === null || error === undefined) frame.resolve();
      else frame.reject(this.#toError(error));
    }
    this.#pump();
  }

  #maybeEnd(): void {
    if (!this.#ending || this.#closed !== undefined || this.#head < this.#queue.length) return;
    if (this.#stream.writableEnded || this.#stream.destroyed) return;
    try {
      this.#stream.end();
    } catch {
      // A stream that cannot be ended is already unusable; its 'error'/'close' reports that.
    }
  }

  #notifyIdle(): void {
    if (this.pending !== 0) return;
    this.#releaseIdleWaiters();
  }

  #releaseIdleWaiters(): void {
    if (this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
