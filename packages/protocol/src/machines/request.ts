/**
 * The request state machine (both eras, both directions; docs/guide/lifecycle.md):
 *
 * ```
 * created → dispatched → processing ─┬─▶ completed
 *                        ▲    │      ├─▶ failed      (error reply, or the handler threw)
 *                        │    ▼      ├─▶ cancelled   (either side; no reply sent or awaited)
 *                        └─ waitingForInput          ├─▶ expired  (timeout; a cancel goes out)
 *                                    └─▶ aborted     (the connection ended first)
 * ```
 *
 * Terminal states never change: any later event is ignored, which is how a late response or
 * a late progress notification for a settled request is dropped silently.
 */

export type RequestStateKind =
  | 'created'
  | 'dispatched'
  | 'processing'
  | 'waitingForInput'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'expired'
  | 'aborted';

/** The request machine's events by name. */
export type RequestEventType =
  /** Outbound: written to the transport. Inbound: accepted by the gate. */
  | 'dispatch'
  /** Inbound: the handler started. Outbound: the first progress arrived. */
  | 'process'
  /** A progress notification for this request. */
  | 'progress'
  /** The handler is waiting on a nested request (sampling, elicitation, roots, …). */
  | 'awaitInput'
  /** The nested request settled. */
  | 'inputReceived'
  | 'complete'
  | 'fail'
  | 'cancel'
  | 'expire'
  | 'abort';

/** Every request state, from `created` to the terminal ones. */
export const REQUEST_STATE_KINDS: readonly RequestStateKind[] = Object.freeze([
  'created',
  'dispatched',
  'processing',
  'waitingForInput',
  'completed',
  'failed',
  'cancelled',
  'expired',
  'aborted',
]);

/** Every {@link RequestEventType}. */
export const REQUEST_EVENT_TYPES: readonly RequestEventType[] = Object.freeze([
  'dispatch',
  'process',
  'progress',
  'awaitInput',
  'inputReceived',
  'complete',
  'fail',
  'cancel',
  'expire',
  'abort',
]);

const TERMINAL: ReadonlySet<RequestStateKind> = new Set(['completed', 'failed', 'cancelled', 'expired', 'aborted']);

/** True for completed, failed, cancelled, expired and aborted. */
export function isSettled(state: RequestStateKind): boolean {
  return TERMINAL.has(state);
}

/** Result of one request transition: the next state and whether the event changed anything. */
export interface RequestStep {
  readonly state: RequestStateKind;
  /** False when the event was ignored (e.g. a late response for a settled request). */
  readonly changed: boolean;
  /** True when this step settled the request (entered a terminal state). */
  readonly settled: boolean;
}

type RequestTable = { readonly [S in RequestStateKind]: { readonly [E in RequestEventType]: RequestStateKind | null } };

const settlers = { complete: 'completed', fail: 'failed', cancel: 'cancelled', expire: 'expired', abort: 'aborted' } as const;
const ignoreAll = { dispatch: null, process: null, progress: null, awaitInput: null, inputReceived: null, complete: null, fail: null, cancel: null, expire: null, abort: null } as const;

/** The request transition table: `null` means the event is ignored in that state. Frozen. */
export const REQUEST_TABLE: RequestTable = Object.freeze({
  created: { ...settlers, dispatch: 'dispatched', process: 'processing', progress: null, awaitInput: null, inputReceived: null },
  dispatched: { ...settlers, dispatch: null, process: 'processing', progress: 'processing', awaitInput: 'waitingForInput', inputReceived: null },
  processing: { ...settlers, dispatch: null, process: null, progress: 'processing', awaitInput: 'waitingForInput', inputReceived: null },
  waitingForInput: { ...settlers, dispatch: null, process: null, progress: 'processing', awaitInput: 'waitingForInput', inputReceived: 'processing' },
  completed: ignoreAll,
  failed: ignoreAll,
  cancelled: ignoreAll,
  expired: ignoreAll,
  aborted: ignoreAll,
});

type RequestSteps = { readonly [S in RequestStateKind]: { readonly [E in RequestEventType]: RequestStep } };

function stepOf(state: RequestStateKind, event: RequestEventType): RequestStep {
  const next = REQUEST_TABLE[state][event];
  if (next === null) return Object.freeze({ state, changed: false, settled: false });
  return Object.freeze({ state: next, changed: next !== state || event === 'progress', settled: isSettled(next) });
}

/**
 * Every step of {@link REQUEST_TABLE}, made once and frozen: a request moves four or five times
 * on each side of a call, and a step object per move was an allocation each time.
 */
const REQUEST_STEPS = Object.freeze(
  Object.fromEntries(REQUEST_STATE_KINDS.map((state) => [state, Object.freeze(Object.fromEntries(REQUEST_EVENT_TYPES.map((event) => [event, stepOf(state, event)])))])),
) as RequestSteps;

/** The pure step of the request machine: a shared, frozen {@link RequestStep}. */
export function requestTransition(state: RequestStateKind, event: RequestEventType): RequestStep {
  return REQUEST_STEPS[state][event];
}
