/**
 * What this side writes back to the peer's requests: replies, and the one place a handler's
 * outcome becomes a reply (`inbound.ts` runs the handler). A request settled first (cancelled,
 * or aborted by the close) gets no reply.
 *
 * Two habits keep a reply's cost to what it writes (the bytes allocated per message set how often
 * the young generation is collected; see tooling/bench/profiling/README.md):
 * - A transport may return one promise for the messages it writes together (the stdio transports
 *   do, per batch). A reply written into the promise of the last one, before that promise's
 *   reaction ran, adds no reaction of its own: a failed write is reported once, and a batch of
 *   replies costs one reaction. The reaction ends the group, so a promise returned again later
 *   (a shared settled one) is watched again.
 * - A handler that returns a value (not a promise) is answered one microtask later, exactly
 *   where a reaction to `Promise.resolve(value)` would run, but through a queue of this side's
 *   own: no promise of the value and no closures over the request.
 */
import { toWireError } from '../errors/errors.js';
import { ErrorCode, errorResponse, isJsonObject, type JsonObject, type JsonRpcMessage, type RequestId } from '../jsonrpc/messages.js';
import type { Revision } from '../revisions/types.js';
import type { InboundRecord, InboundSettlement, RequestLedger } from './ledger.js';
import type { SessionObserver } from './observer.js';

/** The settlements of an inbound request that carry nothing (read, never kept). */
const COMPLETED: InboundSettlement = { event: 'complete' };
const FAILED: InboundSettlement = { event: 'fail' };

/** One settled promise: a reaction to it runs in the next microtask and costs no promise of its own value. */
const RESOLVED = Promise.resolve();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise || (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function');
}

interface ReplyReactions {
  readonly sent: () => void;
  readonly failed: (error: unknown) => void;
}

/** What replies need from their session. */
export interface ReplyHost {
  readonly ledger: RequestLedger;
  readonly observer: SessionObserver;
  /** True while a reply can still be written (connected and not terminated). */
  canReply(): boolean;
  write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void>;
}

export class InboundReplies {
  readonly #host: ReplyHost;
  /** The transport's promise for the last reply written, while its reaction has not run. */
  #replying: Promise<void> | undefined;
  /** {@link reply}'s reactions: made at the first reply, then shared by every reply of the session. */
  #replyReactions: ReplyReactions | undefined;
  /**
   * Values handlers returned, waiting for their microtask: record, value and revision, three
   * slots each, from {@link #returnedHead} to {@link #returnedTail}. Written by index and emptied
   * by resetting both, so its capacity stays: a value costs no allocation here.
   */
  #returned: unknown[] | undefined;
  #returnedHead = 0;
  #returnedTail = 0;
  /** The microtask that answers the oldest returned value (made once per session). */
  #answerReturned: (() => void) | undefined;

  constructor(host: ReplyHost) {
    this.#host = host;
  }

  /** Answers a request with an error (used by the handshake too). */
  replyError(id: RequestId, code: number, message: string, data?: unknown): void {
    this.reply(errorResponse(id, data === undefined ? { code, message } : { code, message, data }), id);
  }

  /** Answers a request with a result. */
  replyResult(id: RequestId, result: JsonObject): void {
    this.reply({ jsonrpc: '2.0', id, result }, id);
  }

  /** Writes a reply; a failed write is reported as a diagnostic. */
  reply(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): void {
    const host = this.#host;
    if (!host.canReply()) return;
    const sent = host.write(message, relatedRequestId);
    if (sent === this.#replying) return;
    this.#replying = sent;
    const reactions = this.#replyReactions ?? this.#makeReplyReactions();
    sent.then(reactions.sent, reactions.failed);
  }

  /** Answers a handler's outcome: a promise when it settles, a value one microtask later. */
  answer(outcome: unknown, record: InboundRecord, revision: Revision): void {
    if (isThenable(outcome)) {
      this.#answerWhenSettled(outcome, record, revision);
      return;
    }
    const queue = (this.#returned ??= []);
    const at = this.#returnedTail;
    queue[at] = record;
    queue[at + 1] = outcome;
    queue[at + 2] = revision;
    this.#returnedTail = at + 3;
    void RESOLVED.then(this.#answerReturned ?? this.#makeAnswerReturned());
  }

  /** A handler threw or its promise rejected: its error as a JSON-RPC error response. */
  fail(error: unknown, record: InboundRecord): void {
    if (!this.#host.ledger.settleInbound(record, FAILED)) return;
    const wire = toWireError(error);
    this.replyError(record.id, wire.code, wire.message, wire.data);
  }

  #complete(result: unknown, record: InboundRecord, revision: Revision): void {
    if (!this.#host.ledger.settleInbound(record, COMPLETED)) return;
    if (isJsonObject(result)) this.replyResult(record.id, revision.features.resultType && result.resultType === undefined ? { resultType: 'complete', ...result } : result);
    else this.replyError(record.id, ErrorCode.InternalError, `Handler for ${record.method} returned a non-object result`);
  }

  /** Apart from the handler's frame, so that its two reactions hold only what they read. */
  #answerWhenSettled(outcome: PromiseLike<unknown>, record: InboundRecord, revision: Revision): void {
    Promise.resolve(outcome).then(
      (result) => this.#complete(result, record, revision),
      (error: unknown) => this.fail(error, record),
    );
  }

  /** One microtask per returned value, in the order they were returned: each answers the oldest. */
  #makeAnswerReturned(): () => void {
    return (this.#answerReturned = (): void => {
      const queue = this.#returned as unknown[]; // a value was queued before its microtask
      const at = this.#returnedHead;
      const record = queue[at] as InboundRecord;
      const result = queue[at + 1];
      const revision = queue[at + 2] as Revision;
      queue[at] = queue[at + 1] = queue[at + 2] = undefined;
      if (at + 3 === this.#returnedTail) this.#returnedHead = this.#returnedTail = 0;
      else this.#returnedHead = at + 3;
      this.#complete(result, record, revision);
    });
  }

  /** Either reaction ends the group: the next reply adds its own. */
  #makeReplyReactions(): ReplyReactions {
    return (this.#replyReactions = {
      sent: (): void => {
        this.#replying = undefined;
      },
      failed: (error: unknown): void => {
        this.#replying = undefined;
        this.#host.observer.diagnostic('could not send a response', error);
      },
    });
  }
}
