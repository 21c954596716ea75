/**
 * Ordered frame writing with backpressure, shared by both stdio transports.
 *
 * Frames are written in call order. When the stream's buffer is full (`write()` returned
 * false) later frames wait in a queue until `'drain'`, so a fast sender and a slow reader do
 * not grow the stream's own buffer without bound. Each `write()` promise settles when the
 * stream has handed that frame to the OS (its write callback), or rejects when the stream
 * fails or the writer is shut.
 *
 * The first frame of a tick is written at once; frames that follow in the same tick (many
 * concurrent replies) are joined and written together on `process.nextTick`, so a burst
 * costs one system call instead of one per frame. Joining stops at {@link BATCH_BYTES}.
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
  /** Batches handed to the stream whose write callback has not run yet. */
  readonly #inFlight = new Set<QueuedFrame[]>();
  #inFlightFrames = 0;
  #closedError: Error | undefined;
  #ending = false;
  /** A frame was written in the current tick: later ones wait for the tick's end. */
  #wroteThisTick = false;
  #flushing = false;
  #idleWaiters: Array<() => void> = [];

  /** @param toError turns a stream failure (EPIPE, destroyed stream) into the error callers see. */
  constructor(stream: Writable, toError: (cause: unknown) => Error) {
    this.#stream = stream;
    this.#toError = toError;
    stream.on('drain', this.#onDrain);
    stream.on('error', this.#onStreamError);
  }

  /** Frames queued or written but not yet confirmed by the stream. */
  get pending(): number {
    return this.#queue.length - this.#head + this.#inFlightFrames;
  }

  write(data: string): Promise<void> {
    if (this.#closedError !== undefined) return Promise.reject(this.#closedError);
    if (this.#ending) return Promise.reject(this.#toError(new Error('The stream is being closed')));
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ data, resolve, reject });
      this.#pump();
    });
  }

  /** Resolves once every frame accepted so far is confirmed or rejected. */
  whenIdle(): Promise<void> {
    if (this.pending === 0 || this.#closedError !== undefined) return Promise.resolve();
    return new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Writes what is queued, then ends the stream. Later writes reject. */
  end(): void {
    if (this.#ending) return;
    this.#ending = true;
    this.#maybeEnd();
  }

  /** Rejects every queued and in-flight frame with `error` and refuses later writes. Does not touch the stream. */
  fail(error: Error): void {
    if (this.#closedError !== undefined) return;
    this.#closedError = error;
    this.#stream.off('drain', this.#onDrain);
    const queued = this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    for (const frame of queued) frame?.reject(error);
    for (const batch of this.#inFlight) for (const frame of batch) frame.reject(error);
    this.#inFlight.clear();
    this.#inFlightFrames = 0;
    this.#releaseIdleWaiters();
  }

  readonly #onStreamError = (error: unknown): void => {
    this.fail(this.#toError(error));
  };

  readonly #onDrain = (): void => {
    this.#blocked = false;
    this.#pump();
  };

  readonly #endTick = (): void => {
    this.#wroteThisTick = false;
    if (this.#head >= this.#queue.length) return;
    this.#flushing = true;
    try {
      this.#pump();
    } finally {
      this.#flushing = false;
    }
  };

  /** Takes the next frame, or (when flushing a tick's burst) every queued frame up to BATCH_BYTES. */
  #take(): QueuedFrame[] {
    const batch: QueuedFrame[] = [];
    let size = 0;
    while (this.#head < this.#queue.length) {
      const frame = this.#queue[this.#head];
      if (frame !== undefined && batch.length > 0 && (!this.#flushing || size + frame.data.length > BATCH_BYTES)) break;
      this.#queue[this.#head] = undefined;
      this.#head += 1;
      if (frame === undefined) continue;
      batch.push(frame);
      size += frame.data.length;
    }
    return batch;
  }

  #pump(): void {
    while (!this.#blocked && this.#closedError === undefined && this.#head < this.#queue.length) {
      if (this.#wroteThisTick && !this.#flushing) break; // the tick's end writes the rest together
      const batch = this.#take();
      if (batch.length === 0) continue;
      if (!this.#wroteThisTick) {
        this.#wroteThisTick = true;
        process.nextTick(this.#endTick);
      }
      this.#track(batch);
      const data = batch.length === 1 ? (batch[0] as QueuedFrame).data : batch.map((frame) => frame.data).join('');
      let accepted: boolean;
      try {
        accepted = this.#stream.write(data, (error) => {
          if (!this.#untrack(batch)) return; // already rejected by fail()
          for (const frame of batch) {
            if (error === null || error === undefined) frame.resolve();
            else frame.reject(this.#toError(error));
          }
          this.#notifyIdle();
        });
      } catch (error) {
        this.#untrack(batch);
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

  #maybeEnd(): void {
    if (!this.#ending || this.#closedError !== undefined || this.#head < this.#queue.length) return;
    if (this.#stream.writableEnded || this.#stream.destroyed) return;
    try {
      this.#stream.end();
    } catch {
      // A stream that cannot be ended is already unusable; its 'error'/'close' reports that.
    }
  }

  #track(batch: QueuedFrame[]): void {
    this.#inFlight.add(batch);
    this.#inFlightFrames += batch.length;
  }

  /** False when the batch was no longer in flight (the writer failed meanwhile). */
  #untrack(batch: QueuedFrame[]): boolean {
    if (!this.#inFlight.delete(batch)) return false;
    this.#inFlightFrames -= batch.length;
    return true;
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
