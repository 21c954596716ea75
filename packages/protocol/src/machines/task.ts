/**
 * The task state machine: the life of one task, shared by the 2025-11-25 experimental tasks
 * (MCP 2025-11-25 basic/utilities/tasks) and the `io.modelcontextprotocol/tasks` extension of
 * 2026-07-28 (SEP-2663), as a
 * pure function over a frozen status × event table:
 *
 * ```
 * working ──needInput──▶ input_required ──inputReceived──▶ working
 *    │                         │
 *    └──── complete / fail / cancel ────┘
 *                  ▼
 *   completed | failed | cancelled        (terminal: never change again)
 * ```
 *
 * Terminal statuses are final: every event is ignored there, which is how `cancelled` sticks
 * when the work finishes after a cancel (the late `complete` changes nothing). Each row names
 * the spec rule it implements.
 */

/** The status of a task (both designs use the same five). */
export type TaskStatusKind = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The task machine's events by name. */
export type TaskEventType =
  /** The work asked the requestor for input (elicitation, sampling, roots). */
  | 'needInput'
  /** Every outstanding input request was answered. */
  | 'inputReceived'
  /** The work finished with a result (a tool result with `isError: true` included, 2026-07-28). */
  | 'complete'
  /** The work ended in a protocol (JSON-RPC) error. */
  | 'fail'
  /** The requestor cancelled, or the task expired. */
  | 'cancel';

/** Every task status, in the order a task usually moves through them. */
export const TASK_STATUS_KINDS: readonly TaskStatusKind[] = Object.freeze(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** Every {@link TaskEventType}. */
export const TASK_EVENT_TYPES: readonly TaskEventType[] = Object.freeze(['needInput', 'inputReceived', 'complete', 'fail', 'cancel']);

/** One row of the task table: the next status (`null`: the event is ignored), the rule and a line of doc. */
export interface TaskTransitionRow {
  readonly to: TaskStatusKind | null;
  readonly rule: string;
  readonly doc: string;
}

/** The task machine as data: one row per (status, event) pair. */
export type TaskTable = { readonly [S in TaskStatusKind]: { readonly [E in TaskEventType]: TaskTransitionRow } };

const row = (to: TaskStatusKind | null, rule: string, doc: string): TaskTransitionRow => Object.freeze({ to, rule, doc });

const ends = {
  complete: row('completed', 'MCP 2025-11-25 basic/utilities/tasks: statuses; SEP-2663: isError is completed', 'the work returned a result'),
  fail: row('failed', 'MCP 2025-11-25 basic/utilities/tasks: statuses; SEP-2663: failed only for JSON-RPC errors', 'the work ended in a protocol error'),
  cancel: row('cancelled', 'MCP 2025-11-25 basic/utilities/tasks: tasks/cancel; SEP-2663: tasks/cancel (cooperative)', 'cancelled by the requestor or expired'),
} as const;

function finalRows(status: TaskStatusKind): { readonly [E in TaskEventType]: TaskTransitionRow } {
  const ignored = row(null, 'MCP 2025-11-25 basic/utilities/tasks: terminal statuses MUST NOT change', `already ${status}: ignored`);
  return Object.freeze({ needInput: ignored, inputReceived: ignored, complete: ignored, fail: ignored, cancel: ignored });
}

/** The task transition table. Frozen. */
export const TASK_TABLE: TaskTable = Object.freeze({
  working: Object.freeze({
    needInput: row('input_required', 'MCP 2025-11-25 basic/utilities/tasks: working → input_required; SEP-2663: inputRequests', 'the work waits on the requestor'),
    inputReceived: row(null, 'MCP 2025-11-25 basic/utilities/tasks: statuses', 'nothing outstanding: ignored'),
    ...ends,
  }),
  input_required: Object.freeze({
    needInput: row(null, 'SEP-2663 (tasks extension): inputRequests lists every outstanding request', 'another request joins the outstanding ones'),
    inputReceived: row('working', 'MCP 2025-11-25 basic/utilities/tasks: receiver SHOULD return to working once input arrives', 'the answers arrived; the work resumes'),
    ...ends,
  }),
  completed: finalRows('completed'),
  failed: finalRows('failed'),
  cancelled: finalRows('cancelled'),
});

/** True for completed, failed and cancelled. */
export function isTaskTerminal(status: TaskStatusKind): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** Result of one task transition. */
export interface TaskStep {
  readonly status: TaskStatusKind;
  /** False when the event was ignored (a terminal task, or nothing to change). */
  readonly changed: boolean;
}

/** The pure step of the task machine. */
export function taskTransition(status: TaskStatusKind, event: TaskEventType): TaskStep {
  const next = TASK_TABLE[status][event].to;
  return next === null || next === status ? { status, changed: false } : { status: next, changed: true };
}

/** The statuses `status` can move to (for the 2025-11-25 store and for diagrams). */
export function taskSuccessors(status: TaskStatusKind): readonly TaskStatusKind[] {
  const out = new Set<TaskStatusKind>();
  for (const event of TASK_EVENT_TYPES) {
    const next = TASK_TABLE[status][event].to;
    if (next !== null && next !== status) out.add(next);
  }
  return [...out];
}

/**
 * The event that moves a task from `from` to `to` in one step, or undefined when no single
 * event does (for an observer that sees only statuses, like a polling client).
 *
 * @example
 * ```ts
 * taskEventBetween('working', 'input_required'); // 'needInput'
 * taskEventBetween('completed', 'working'); // undefined: terminal statuses never change
 * ```
 */
export function taskEventBetween(from: TaskStatusKind, to: TaskStatusKind): TaskEventType | undefined {
  if (from === to) return undefined;
  return TASK_EVENT_TYPES.find((event) => TASK_TABLE[from][event].to === to);
}
