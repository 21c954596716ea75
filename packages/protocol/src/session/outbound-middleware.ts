/**
 * An outbound request with middleware (see `middleware.ts`): it enters the ledger first (its
 * timeout, maximum and signal run from then), then the chain runs; `next()` writes it (or holds
 * it until the handshake ends) and resolves with its result. A chain that answers without
 * `next()` settles the record with its answer and never writes it; a record that settles
 * before `next()` (cancelled, timed out, closed) aborts the chain's signal, and the call then
 * rejects with why it ended — once the chain returns: a middleware that waits before `next()`
 * must stop when its signal aborts.
 */
import { InvalidStateError } from '../errors/errors.js';
import { isJsonObject, type JsonObject, type JsonRpcRequest } from '../jsonrpc/messages.js';
import { readTraceContext, withoutTraceKeys, type TraceContext } from '../observability/trace-context.js';
import type { OutboundRecord, RequestLedger } from './ledger.js';
import { runMiddleware, type Middleware } from './middleware.js';
import { OutboundRequestMiddlewareContext, type MiddlewareSession, type OutboundRequestHandle } from './middleware-context.js';
import type { RequestOptions } from './options.js';

/** What the gate needs from the session's outbound requests. */
export interface GatedOutbound {
  /** Writes (or holds) a request that entered the ledger, unless it settled meanwhile. */
  start(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions, held: boolean): void;
  /** The request's params changed before it was written: its retries carry them too. */
  retrace(record: OutboundRecord, params: JsonObject): void;
}

/**
 * Runs `chain` around a request that `settled` stands for (the ledger's promise of its
 * outcome): a chain that writes the request before its first await adds no promise of its own.
 */
export function sendThroughMiddleware(
  chain: readonly Middleware[],
  host: MiddlewareSession & { readonly ledger: RequestLedger },
  gate: OutboundGate,
  settled: Promise<JsonObject>,
  params: JsonObject | undefined,
): Promise<JsonObject> {
  gate.track(settled, host.ledger);
  const outcome = runMiddleware(chain, new OutboundRequestMiddlewareContext(host, params ?? {}, gate), gate.next);
  // Written already (every middleware called `next()` before its first await): the outcome is
  // the request's own, nothing is left to settle. Otherwise the chain may still answer unwritten.
  if (gate.started) return outcome;
  return outcome.then(
    (result) => gate.answered(result),
    (error: unknown) => gate.failed(error),
  );
}

/** A request in the ledger, not yet written. */
interface OpenedRequest {
  readonly record: OutboundRecord;
  readonly message: JsonRpcRequest;
  readonly options: RequestOptions;
  readonly held: boolean;
}

/** An outbound request on its way through middleware: what its context reads, and its start. */
export class OutboundGate implements OutboundRequestHandle {
  started = false;
  readonly #outbound: GatedOutbound;
  /** Created when the chain first reads `signal` (an AbortController costs more than the rest of the gate). */
  #controller: AbortController | undefined;
  /** Why the request ended without an answer, once it did (aborts a controller created later). */
  #abortReason: { readonly reason: unknown } | undefined;
  #opened: OpenedRequest | undefined;
  #settled: Promise<JsonObject> | undefined;
  #ledger: RequestLedger | undefined;

  constructor(
    outbound: GatedOutbound,
    readonly protocolVersion: string | undefined,
  ) {
    this.#outbound = outbound;
  }

  open(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions, held: boolean): void {
    this.#opened = { record, message, options, held };
  }

  /** The record's reject, wrapped: a request that ends without an answer aborts the chain's signal. */
  watch(reject: (error: Error) => void): (error: Error) => void {
    return (error) => {
      this.abort(error);
      reject(error);
    };
  }

  /** The ledger's promise of the request's outcome, and the ledger that settles it. */
  track(settled: Promise<JsonObject>, ledger: RequestLedger): void {
    this.#settled = settled;
    this.#ledger = ledger;
  }

  /** The chain's terminal `next()`: writes the request and resolves with its outcome. */
  readonly next = (): Promise<JsonObject> => {
    this.start();
    return this.#settled ?? Promise.reject(new InvalidStateError('The request has not entered the ledger yet', 'created'));
  };

  /** The chain answered: a request never written is settled with that answer (or fails with why it ended first). */
  answered(result: JsonObject): JsonObject {
    if (this.started) return result;
    if (this.#abortReason !== undefined) throw asError(this.#abortReason.reason);
    this.#ledger?.settle(this.#request.record, 'complete', result);
    return result;
  }

  /** The chain failed: a request never written fails with it (or with why it ended first). */
  failed(error: unknown): never {
    const failure = asError(error);
    if (!this.started) {
      if (this.#abortReason !== undefined) throw asError(this.#abortReason.reason);
      this.#ledger?.settle(this.#request.record, 'fail', failure);
    }
    throw failure;
  }

  get #request(): OpenedRequest {
    const opened = this.#opened;
    if (opened === undefined) throw new InvalidStateError('The request has not entered the ledger yet', 'created');
    return opened;
  }

  get record(): OutboundRecord {
    return this.#request.record;
  }

  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = this.#controller = new AbortController();
      if (this.#abortReason !== undefined) controller.abort(this.#abortReason.reason);
    }
    return controller.signal;
  }

  abort(reason: unknown): void {
    this.#abortReason ??= { reason };
    this.#controller?.abort(reason);
    // Ended before the chain wrote it: nobody may ever read the ledger's promise.
    if (!this.started) this.#settled?.catch(() => undefined);
  }

  start(): void {
    this.started = true;
    const { record, message, options, held } = this.#request;
    this.#outbound.start(record, message, options, held);
  }

  propagate(trace: TraceContext): void {
    if (this.started) throw new InvalidStateError('propagate() must be called before next(): the request has been written', this.#request.record.state);
    const { record, message } = this.#request;
    const valid = readTraceContext(trace);
    const params = message.params ?? {};
    const meta = isJsonObject(params._meta) ? params._meta : undefined;
    message.params = { ...params, _meta: { ...withoutTraceKeys(meta), ...valid } };
    record.trace = valid;
    this.#outbound.retrace(record, message.params);
  }
}

/** A request's reject: as it is without middleware, watched by its gate with middleware. */
export function watchedBy(gate: OutboundGate | undefined, reject: (error: Error) => void): (error: Error) => void {
  return gate === undefined ? reject : gate.watch(reject);
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
