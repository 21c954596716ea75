/**
 * Ordered frame writing with backpressure, shared by both stdio transports.
 *
 * Frames are written in call order. When the stream's buffer is full (`write()` returned
 * false) later frames wait in a queue until `'drain'`, so a fast sender and a slow reader do
 * not grow the stream's own buffer without bound. Each `write()` promise settles when the
 * stream has handed that frame to the OS (its write callback), or rejects when the stream
 * fails or the writer is shut.
 *
 * Frames are queued in batches, each a list of frames and one promise that every frame of the
 * batch returns: the batch is written in one call and settles as one, so a frame costs a slot
 * in an array rather than a promise, its resolving functions and a record of its own (the
 * bytes allocated per message set how often the young generation is collected).
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

/** Frames written in one call, and the one promise all of them returned. */
interface Batch {
  readonly frames: string[];
  size: number;
  readonly done: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** A promise's resolving functions before {@link openBatch} takes them (never called). */
function unbound(): void {
  throw new Error('A frame batch was settled before its promise existed');
}

/** The resolving functions of the promise being created, left by {@link bindSettlers} for {@link openBatch}. */
let boundResolve: () => void = unbound;
let boundReject: (error: Error) => void = unbound;

/** The promise's executor, a module function: a batch costs no executor closure. */
function bindSettlers(resolve: () => void, reject: (error: Error) => void): void {
  boundResolve = resolve;
  boundReject = reject;
}

function openBatch(data: string): Batch {
  const done = new Promise<void>(bindSettlers);
  const batch: Batch = { frames: [data], size: data.length, done, resolve: boundResolve, reject: boundReject };
  boundResolve = boundReject = unbound;
  return batch;
}

export class FrameWriter {
  readonly #stream: Writable;
  readonly #toError: (cause: unknown) => Error;
  /** Batches waiting to be written, oldest first; frames join the last one while it has room. */
  #queue: Batch[] = [];
  /** Frames in {@link #queue}. */
  #queued = 0;
  #blocked = false;
  /** The batch handed to the stream whose write callback has not run yet: later frames wait for it. */
  #inFlight: Batch | undefined;
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
    return this.#queued + (this.#inFlight?.frames.length ?? 0);
  }

  /** Queues `data`; the promise (shared with the frames written in the same call) settles once the stream took it. */
  write(data: string): Promise<void> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed());
    if (this.#ending) return Promise.reject(this.#toError(new Error('The stream is being closed')));
    const queue = this.#queue;
    const last = queue[queue.length - 1];
    let batch: Batch;
    if (last !== undefined && last.size + data.length <= BATCH_BYTES) {
      batch = last;
      batch.frames.push(data);
      batch.size += data.length;
    } else {
      batch = openBatch(data);
      queue.push(batch);
    }
    this.#queued += 1;
    if (this.#inFlight === undefined && !this.#flushArmed) {
      this.#flushArmed = true;
      process.nextTick(this.#flush);
    }
    return batch.done;
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
    const queued = this.#queue;
    this.#queue = [];
    this.#queued = 0;
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    inFlight?.reject(closed());
    for (const batch of queued) batch.reject(closed());
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

  #pump(): void {
    while (this.#inFlight === undefined && !this.#blocked && this.#closed === undefined && this.#queue.length > 0) {
      const batch = this.#queue.shift() as Batch; // the loop's condition: the queue is not empty
      this.#queued -= batch.frames.length;
      this.#inFlight = batch;
      const { frames } = batch;
      const data = frames.length === 1 ? (frames[0] as string) : frames.join('');
      let accepted: boolean;
      try {
        accepted = this.#stream.write(data, (error) => this.#written(batch, error));
      } catch (error) {
        this.#inFlight = undefined;
        batch.reject(this.#toError(error));
        continue;
      }
      if (!accepted) this.#blocked = true;
    }
    this.#maybeEnd();
    this.#notifyIdle();
  }

  /** The stream's callback for `batch`: settles its frames, then writes what queued meanwhile. */
  #written(batch: Batch, error: Error | null | undefined): void {
    if (this.#inFlight !== batch) return; // already rejected by fail()
    this.#inFlight = undefined;
    if (error === null || error === undefined) batch.resolve();
    else batch.reject(this.#toError(error));
    this.#pump();
  }

  #maybeEnd(): void {
    if (!this.#ending || this.#closed !== undefined || this.#queue.length > 0) return;
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
