/**
 * An outbound request with middleware (see `middleware.ts`): it enters the ledger first (its
 * timeout, maximum and signal run from then), then the chain runs; `next()` writes it (or holds
 * it until the handshake ends) and resolves with its result. A chain that answers without
 * `next()` settles the record with its answer and never writes it; a record that settles
 * before `next()` (cancelled, timed out, closed) rejects the call at once and aborts the
 * chain's signal.
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

/** Runs `chain` around a request that `settled` stands for (the ledger's promise of its outcome). */
export function sendThroughMiddleware(
  chain: readonly Middleware[],
  host: MiddlewareSession & { readonly ledger: RequestLedger },
  gate: OutboundGate,
  settled: Promise<JsonObject>,
  params: JsonObject | undefined,
): Promise<JsonObject> {
  const record = gate.record;
  const context = new OutboundRequestMiddlewareContext(host, params ?? {}, gate);
  return new Promise<JsonObject>((resolve, reject) => {
    settled.catch((error: unknown) => {
      gate.abort(error);
      if (!gate.started) reject(error instanceof Error ? error : new Error(String(error)));
    });
    runMiddleware(chain, context, () => {
      gate.start();
      return settled;
    }).then(
      (result) => {
        if (!gate.started) host.ledger.settle(record, { event: 'complete', result });
        resolve(result);
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        if (!gate.started) host.ledger.settle(record, { event: 'fail', error: failure });
        reject(failure);
      },
    );
  });
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
  readonly #controller = new AbortController();
  #opened: OpenedRequest | undefined;

  constructor(
    outbound: GatedOutbound,
    readonly protocolVersion: string | undefined,
  ) {
    this.#outbound = outbound;
  }

  open(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions, held: boolean): void {
    this.#opened = { record, message, options, held };
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
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.#controller.abort(reason);
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
