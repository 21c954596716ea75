/**
 * Multi Round-Trip Requests on the serving side (2026-07-28, MCP 2026-07-28 basic/patterns/mrtr).
 * A handler is
 * written once: on a legacy connection `ctx.elicit()`, `ctx.createMessage()` and
 * `ctx.listRoots()` send a request to the client; on a modern one they go through the
 * request's {@link InputRound}. The design is stateless: each attempt runs the handler from
 * the start. An input request whose answer is known (from the client's `inputResponses`, or
 * carried from earlier rounds in the sealed `requestState`) resolves with it at once; one
 * that is not is recorded under its key and never settles, and the attempt ends with an
 * `InputRequiredResult` naming every input request the handler made before it stopped, plus
 * a new sealed state with the answers used so far. The client's retry (a new id,
 * `inputResponses`, the state echoed) runs the handler again and it gets further.
 *
 * ```
 * attempt 1: handler ──ask(user_name)──▶ unknown ──▶ { resultType: input_required, inputRequests, requestState }
 * attempt 2: handler ──ask(user_name)──▶ answer ──▶ … ──▶ { resultType: complete, … }
 * ```
 *
 * Answers the handler never asks for are ignored (and not carried on); a malformed answer to
 * a question it asks is -32602.
 *
 * An attempt that ended with an `InputRequiredResult` is over: the server keeps nothing for
 * the retry (the client may never send one, MCP 2026-07-28 basic/patterns/mrtr), so the handler's signal
 * (`extra.signal`) is aborted with a `RequestCancelledError` (reason `inputRequired`) and its
 * unanswered input requests reject with the same error — the handler unwinds (its `finally`
 * blocks run, its timers can be cleared) instead of staying suspended. Whatever it still
 * returns or throws is dropped. The state is sealed for the authorization principal of the
 * request when there is one (see `request-state.ts`).
 */
import { ErrorCode, JsonRpcError, RequestCancelledError, isJsonObject, type JsonObject, type RequestContext } from '@statemcp/protocol';
import { isAuthInfo } from '@statemcp/protocol/internal';
import type { RequestStateSealer } from './request-state.js';
import { withResultMeta } from './result-meta.js';

/** The server-to-client requests a round can carry. */
export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

const KEY_PREFIX: Readonly<Record<InputMethod, string>> = Object.freeze({
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
});

/** Whether `answer` has the shape of a result of `method` (the wire schema already checked it is one of the three). */
function answers(method: InputMethod, answer: unknown): boolean {
  if (!isJsonObject(answer)) return false;
  switch (method) {
    case 'elicitation/create':
      return answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel';
    case 'sampling/createMessage':
      return typeof answer.role === 'string' && typeof answer.model === 'string' && answer.content !== undefined;
    case 'roots/list':
      return Array.isArray(answer.roots);
  }
}

/** The input requests and answers of one attempt of a modern-era request. */
export class InputRound {
  readonly #available: JsonObject;
  // The three below are created on first need: most attempts never ask (a modern call of a tool
  // that needs no input).
  #used: JsonObject | undefined;
  #requests: JsonObject | undefined;
  readonly #request: RequestContext | undefined;
  /** The unanswered input requests' rejections, called when the attempt ends. */
  #waiting: Set<(error: Error) => void> | undefined;
  #controller: AbortController | undefined;
  #unlink: (() => void) | undefined;
  #ended: Error | undefined;
  #count = 0;
  #asked = false;
  /** Called once, at the handler's first input request that has no answer yet. */
  onAsk: (() => void) | undefined;

  /**
   * `available`: the answers this attempt may use (earlier rounds' first, then the retry's);
   * `request`: the context whose signal this attempt's signal follows.
   */
  constructor(available: JsonObject, request?: RequestContext) {
    this.#available = available;
    this.#request = request;
  }

  /**
   * The attempt's signal (what `extra.signal` is in an MRTR method): aborted with the request's
   * (cancelled, connection closed) or when the attempt ends with an `InputRequiredResult`.
   * Created on first read, like the request's own.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      if (this.#ended !== undefined) {
        controller.abort(this.#ended);
      } else if (this.#request !== undefined) {
        const outer = this.#request.signal;
        if (outer.aborted) controller.abort(outer.reason);
        const follow = (): void => controller.abort(outer.reason);
        outer.addEventListener('abort', follow, { once: true });
        this.#unlink = () => outer.removeEventListener('abort', follow);
      }
    }
    return this.#controller.signal;
  }

  /** True once the attempt has ended with an `InputRequiredResult` ({@link end}). */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /**
   * The attempt is over: aborts its signal with `reason` and rejects its unanswered input
   * requests (and any made later) with it, so the handler unwinds; drops the link to the
   * request's signal. Idempotent.
   */
  end(reason: Error): void {
    if (this.#ended !== undefined) return;
    this.#ended = reason;
    this.#unlink?.();
    this.#unlink = undefined;
    this.#controller?.abort(reason);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting !== undefined) for (const reject of waiting) reject(reason);
  }

  /** The input requests still unanswered, keyed (the `inputRequests` of the result). */
  get requests(): JsonObject {
    return (this.#requests ??= {});
  }

  /** The answers the handler used, keyed (carried on in the next `requestState`). */
  get used(): JsonObject {
    return (this.#used ??= {});
  }

  /** True once the handler made an input request that had no answer (whether or not the round ended since). */
  get asked(): boolean {
    return this.#asked;
  }

  /** True once the handler asked for something that has no answer yet. */
  get incomplete(): boolean {
    return this.#requests !== undefined && Object.keys(this.#requests).length > 0;
  }

  /**
   * The answer to one input request: the known one (checked against `method`'s result shape,
   * -32602 when it does not fit), or — when there is none — a promise that never settles while
   * the request is recorded for the `InputRequiredResult`. `key` defaults to the method's
   * short name and the request's position in the handler (`elicitation-1`, `sampling-2`, …).
   */
  ask(method: InputMethod, params: JsonObject | undefined, key?: string): Promise<JsonObject> {
    this.#count += 1;
    const name = key ?? `${KEY_PREFIX[method]}-${this.#count}`;
    if (Object.hasOwn(this.#available, name)) {
      const answer = this.#available[name];
      if (!answers(method, answer)) {
        return Promise.reject(new JsonRpcError(ErrorCode.InvalidParams, `Invalid input response ${JSON.stringify(name)}: not a ${method} result`));
      }
      (this.#used ??= {})[name] = answer;
      return Promise.resolve(answer as JsonObject);
    }
    if (this.#ended !== undefined) return Promise.reject(this.#ended);
    (this.#requests ??= {})[name] = params === undefined ? { method } : { method, params };
    this.#asked = true;
    const onAsk = this.onAsk;
    this.onAsk = undefined;
    onAsk?.();
    // Settles only when the attempt ends (rejected): the retry runs the handler again with the answer.
    return new Promise<JsonObject>((_resolve, reject) => {
      (this.#waiting ??= new Set()).add(reject);
    });
  }
}

/**
 * The round of a request, kept on its context under a symbol: a `WeakMap` keyed by every
 * modern request's context would make each of them an ephemeron the garbage collector traces
 * separately. Until something reads the round (an input request, the attempt's signal, an
 * `async` handler's race), the symbol holds the answers it will be made with: most attempts
 * never ask, and then no round is made.
 */
const ROUND: unique symbol = Symbol('statemcp.inputRound');

type WithRound = RequestContext & { [ROUND]?: InputRound | JsonObject };

/** The round of the request `context` belongs to (made at its first read); undefined outside a modern-era MRTR method. */
export function inputRoundOf(context: RequestContext): InputRound | undefined {
  const slot = (context as WithRound)[ROUND];
  if (slot === undefined || slot instanceof InputRound) return slot;
  const round = new InputRound(slot, context);
  (context as WithRound)[ROUND] = round;
  return round;
}

/** True once the handler of the attempt on `context` made an input request that had no answer. */
function hasAsked(context: RequestContext): boolean {
  const slot = (context as WithRound)[ROUND];
  return slot instanceof InputRound && slot.asked;
}

/** The attempt's round, made now if nothing read it yet (the attempt continues past the handler's return). */
function roundOf(context: RequestContext): InputRound {
  const round = inputRoundOf(context);
  if (round === undefined) throw new Error('An attempt of a Multi Round-Trip method has no input round');
  return round;
}

/** Lets a handler that asked for input finish asking: a macrotask, after which every request it made in parallel is recorded. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

type Outcome = { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly error: unknown };

function isThenable(value: JsonObject | PromiseLike<JsonObject>): value is PromiseLike<JsonObject> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Runs one attempt of a modern-era `tools/call`, `prompts/get` or `resources/read`: opens the
 * echoed `requestState` (-32602 when it was tampered with, expired, or issued for another
 * request), gives the handler the answers, and returns its result — or, when it asked for
 * input that has no answer yet, an `InputRequiredResult` with a newly sealed state. The
 * handler gets the params without `inputResponses` and `requestState`.
 *
 * A first attempt (no `requestState`) whose handler returns synchronously without asking is
 * answered synchronously, with no promise: that is every modern call of a synchronous tool,
 * which then pays for no `async` wrapper, awaited race or promise chain. Everything else goes
 * through the promise path; a synchronous throw still becomes a rejection. `resultMeta`, when
 * given, is the server's sealed `_meta` added to every result of the attempt (`result-meta.ts`),
 * so that an `async` handler's result takes no second promise to get it.
 */
export function runInputRound<C extends RequestContext>(
  method: string,
  params: JsonObject,
  context: C,
  sealer: RequestStateSealer,
  handler: RoundHandler<C>,
  resultMeta?: JsonObject,
): JsonObject | Promise<JsonObject> {
  try {
    const { inputResponses, requestState } = params;
    const rest = inputResponses === undefined && requestState === undefined ? params : withoutRoundFields(params);
    const principal = principalOf(context);
    if (typeof requestState === 'string') {
      return sealer
        .open(requestState, method, params, principal)
        .then((opened) => attempt({ method, params, context, sealer, principal, resultMeta }, withAnswers({ ...opened }, inputResponses), handler, rest));
    }
    const available = inputResponses === undefined ? NO_ANSWERS : withAnswers({}, inputResponses);
    return attempt({ method, params, context, sealer, principal, resultMeta }, available, handler, rest);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what the handler threw, unchanged (the session's toWireError reads it)
    return Promise.reject(error);
  }
}

/** The method's handler, called with the params without the round's fields and the request's context. */
type RoundHandler<C extends RequestContext> = (params: JsonObject, context: C) => JsonObject | Promise<JsonObject>;

/** The answers of a first attempt without `inputResponses`: none (a round only reads them). */
const NO_ANSWERS: JsonObject = Object.freeze({});

/** What an attempt needs to seal its state when it ends with an `InputRequiredResult`. */
interface AttemptRequest<C extends RequestContext = RequestContext> {
  readonly method: string;
  readonly params: JsonObject;
  readonly context: C;
  readonly sealer: RequestStateSealer;
  readonly principal: JsonObject | undefined;
  /** The server's sealed `_meta` for every result of the attempt (`result-meta.ts`), if it adds one. */
  readonly resultMeta: JsonObject | undefined;
}

/** The attempt's final result, with the server's `_meta` when it adds one. */
function finished(request: AttemptRequest, result: JsonObject): JsonObject {
  return request.resultMeta === undefined ? result : withResultMeta(result, request.resultMeta);
}

/** `params` without the round's own fields (what the handler gets). */
function withoutRoundFields(params: JsonObject): JsonObject {
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  return rest;
}

/** `available` completed with the retry's `inputResponses` (earlier rounds' answers win). */
function withAnswers(available: JsonObject, inputResponses: unknown): JsonObject {
  if (isJsonObject(inputResponses)) {
    for (const [key, answer] of Object.entries(inputResponses)) {
      // Keys come from the client: `__proto__` is defined as an own member, never assigned.
      if (!Object.hasOwn(available, key)) Object.defineProperty(available, key, { value: answer, enumerable: true, writable: true, configurable: true });
    }
  }
  return available;
}

/**
 * Runs the handler once with the round's answers: its result at once when it returned
 * synchronously without asking; otherwise (a promise, or an input request made) a promise of
 * the outcome, see {@link settleAttempt}. A synchronous throw before any ask is thrown.
 */
function attempt<C extends RequestContext>(request: AttemptRequest<C>, available: JsonObject, handler: RoundHandler<C>, params: JsonObject): JsonObject | Promise<JsonObject> {
  const context = request.context;
  (context as WithRound)[ROUND] = available; // the round itself is made at its first read (inputRoundOf)
  let value: JsonObject | Promise<JsonObject>;
  try {
    value = handler(params, context);
  } catch (error) {
    if (!hasAsked(context)) throw error;
    // It asked, then threw: the attempt ends with the input request (as if the throw came later).
    return settleAttempt(request, roundOf(context), true, undefined, undefined);
  }
  const asked = hasAsked(context);
  if (isThenable(value)) return asked ? settleAttempt(request, roundOf(context), true, value, undefined) : raceFirstAsk(request, roundOf(context), value);
  return asked ? settleAttempt(request, roundOf(context), true, undefined, { ok: true, value }) : finished(request, value);
}

/**
 * A handler that returned a promise without asking yet (every `async` tool): its own outcome,
 * unless it asks before settling — then the attempt continues as {@link settleAttempt} with
 * the ask first. One promise, its own resolving functions handed to the handler's promise:
 * whichever of the two resolves it first wins (a promise's resolving functions act once), so
 * the common case costs no closure of its own beyond the ask's.
 */
function raceFirstAsk(request: AttemptRequest, round: InputRound, pending: PromiseLike<JsonObject>): Promise<JsonObject> {
  return new Promise<JsonObject>((resolve, reject) => {
    round.onAsk = () => resolve(settleAttempt(request, round, true, pending, undefined));
    pending.then(request.resultMeta === undefined ? resolve : (value) => resolve(finished(request, value)), reject);
  });
}

/**
 * The outcome of an attempt that did not end synchronously. One promise races the handler's
 * settlement and the round's first unanswered ask (fewer promises and reactions than a
 * `Promise.race` over a chained handler promise and an `asked` promise). After an
 * ask, the next macrotask lets the handler finish asking: every request it made in parallel
 * is then recorded.
 */
async function settleAttempt(
  request: AttemptRequest,
  round: InputRound,
  asked: boolean,
  pending: PromiseLike<JsonObject> | undefined,
  known: Outcome | undefined,
): Promise<JsonObject> {
  let settled = known;
  let first: Outcome | undefined;
  if (pending !== undefined) {
    first = await new Promise<Outcome | undefined>((resolve) => {
      if (asked) resolve(undefined);
      else round.onAsk = () => resolve(undefined);
      Promise.resolve(pending).then(
        (value) => resolve((settled = { ok: true, value })),
        (error: unknown) => resolve((settled = { ok: false, error })),
      );
    });
  }
  if (first === undefined) await nextTurn();
  if (settled !== undefined && !settled.ok) throw settled.error;
  if (!round.incomplete && settled !== undefined) return finished(request, settled.value);
  const { method, params, context, sealer, principal } = request;
  context.markWaitingForInput?.(Object.keys(round.requests));
  try {
    return finished(request, { resultType: 'input_required', inputRequests: round.requests, requestState: await sealer.seal(method, params, round.used, principal) });
  } finally {
    round.end(new RequestCancelledError(`This attempt of ${method} ended with an InputRequiredResult; the handler runs again when the client retries`, { reason: 'inputRequired' }));
  }
}

/** The authorization principal of the request (its verified OAuth identity), when it came through an authorization layer. */
function principalOf(context: RequestContext): JsonObject | undefined {
  const auth = context.authInfo;
  if (!isAuthInfo(auth)) return undefined;
  const principal: JsonObject = { client: auth.clientId };
  if (auth.issuer !== undefined) principal.issuer = auth.issuer;
  if (auth.subject !== undefined) principal.subject = auth.subject;
  return principal;
}
