/**
 * What the feed keeps of one inspect event between its arrival and the next flush: the fields
 * a viewer shows, copied into a small record, so the MCP message itself is not held (or later
 * encoded) unless whole payloads were asked for.
 */
import type { InspectEvent, RequestInputRound, TaskQueueEvent } from '@statemcp/protocol';

/** An inspect event as queued: numbered, and with its message summarized unless payloads are kept. */
export interface QueuedEvent {
  readonly seq: number;
  /** The inspect event's type, or `task-queue` for an event of the job queue's channel. */
  readonly type: InspectEvent['type'] | 'task-queue';
  readonly sessionId: string;
  readonly at: number;
  readonly message?: unknown;
  readonly detail?: unknown;
  readonly [field: string]: unknown;
}

/** What a summarized message keeps: enough for the timeline and the ledger's progress and cancellation. */
interface MessageSummary {
  readonly summary: true;
  readonly id: string | number | undefined;
  readonly method: string | undefined;
  readonly error: { readonly code: unknown; readonly message: string | undefined } | undefined;
  readonly params: Record<string, unknown> | undefined;
}

const MAX_TEXT = 256;

/** The queued form of one event published on a statemcp diagnostics channel. */
export function summarizeEvent(event: InspectEvent, seq: number, payloads: boolean): QueuedEvent {
  switch (event.type) {
    case 'session.transition':
      return { seq, type: event.type, sessionId: event.sessionId, at: event.at, from: event.from, to: event.to, event: event.event };
    case 'request.transition':
      return {
        seq,
        type: event.type,
        sessionId: event.sessionId,
        at: event.at,
        requestId: typeof event.requestId === 'string' ? event.requestId.slice(0, MAX_TEXT) : event.requestId,
        direction: event.direction,
        method: event.method.slice(0, MAX_TEXT),
        from: event.from,
        to: event.to,
        event: event.event,
        elapsedMs: event.elapsedMs,
        trace: event.trace,
        input: event.input === undefined ? undefined : summarizeInput(event.input),
      };
    case 'task.transition':
      return {
        seq,
        type: event.type,
        sessionId: event.sessionId,
        at: event.at,
        taskId: String(event.taskId).slice(0, MAX_TEXT),
        side: event.side,
        requestId: typeof event.requestId === 'string' ? event.requestId.slice(0, MAX_TEXT) : event.requestId,
        tool: event.tool?.slice(0, MAX_TEXT),
        from: event.from,
        to: event.to,
        event: event.event,
        elapsedMs: event.elapsedMs,
      };
    case 'message.in':
    case 'message.out':
      return { seq, type: event.type, sessionId: event.sessionId, at: event.at, message: payloads ? event.message : summarizeMessage(event.message) };
    case 'diagnostic':
      return { seq, type: event.type, sessionId: event.sessionId, at: event.at, message: event.message, detail: event.detail };
    default: {
      // Not a statemcp event shape (someone else published on the channel): kept as it came.
      const other: unknown = event;
      return { seq, ...(typeof other === 'object' && other !== null ? other : { value: other }) } as unknown as QueuedEvent;
    }
  }
}

const MAX_KEYS = 16;

/** An MRTR round as the ledger shows it: the round, its first keys (cut), the first id. */
function summarizeInput(input: RequestInputRound): RequestInputRound {
  const keys = input.keys.slice(0, MAX_KEYS).map((key) => key.slice(0, MAX_TEXT));
  const firstId = typeof input.firstId === 'string' ? input.firstId.slice(0, MAX_TEXT) : input.firstId;
  return { ...(input.round !== undefined ? { round: input.round } : {}), keys, ...(firstId !== undefined ? { firstId } : {}) };
}

/** A JSON-RPC message reduced to its id, method, error code and the params the page reads. */
export function summarizeMessage(message: unknown): MessageSummary {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { summary: true, id: undefined, method: undefined, error: undefined, params: undefined };
  }
  const { id, method, error, params } = message as { id?: unknown; method?: unknown; error?: unknown; params?: unknown };
  const name = typeof method === 'string' ? method.slice(0, MAX_TEXT) : undefined;
  return {
    summary: true,
    id: typeof id === 'number' ? id : typeof id === 'string' ? id.slice(0, MAX_TEXT) : undefined,
    method: name,
    error: typeof error === 'object' && error !== null ? summarizeError(error) : undefined,
    params: typeof params === 'object' && params !== null ? pickParams(name, params as Record<string, unknown>) : undefined,
  };
}

function summarizeError(error: { code?: unknown; message?: unknown }): MessageSummary['error'] {
  return { code: typeof error.code === 'number' ? error.code : undefined, message: typeof error.message === 'string' ? error.message.slice(0, MAX_TEXT) : undefined };
}

/** The params the page shows: progress, cancellation, the progress token, a tool name or resource URI. */
function pickParams(method: string | undefined, params: Record<string, unknown>): Record<string, unknown> | undefined {
  if (method === 'notifications/progress') {
    return { progressToken: scalar(params['progressToken']), progress: scalar(params['progress']), total: scalar(params['total']) };
  }
  if (method === 'notifications/cancelled') return { requestId: scalar(params['requestId']), reason: scalar(params['reason']) };
  const meta = params['_meta'];
  const token = typeof meta === 'object' && meta !== null ? scalar((meta as Record<string, unknown>)['progressToken']) : undefined;
  const name = scalar(params['name']);
  const uri = scalar(params['uri']);
  if (token === undefined && name === undefined && uri === undefined) return undefined;
  return { name, uri, _meta: token === undefined ? undefined : { progressToken: token } };
}

function scalar(value: unknown): string | number | undefined {
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? value.slice(0, MAX_TEXT) : undefined;
}

/**
 * The queued form of one event of the job queue's channel (`statemcp:task-queue`): its own
 * fields under `type: 'task-queue'` (the queue's event in `event`), with no session.
 */
export function summarizeQueueEvent(message: unknown, seq: number): QueuedEvent | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const event = message as TaskQueueEvent;
  const base = { seq, type: 'task-queue' as const, sessionId: '', at: event.at, queue: String(event.queue).slice(0, MAX_TEXT), event: event.type };
  switch (event.type) {
    case 'queued':
      return { ...base, taskId: String(event.taskId).slice(0, MAX_TEXT) };
    case 'started':
      return { ...base, taskId: String(event.taskId).slice(0, MAX_TEXT), attempt: event.attempt, waitMs: event.waitMs };
    case 'settled':
      return { ...base, taskId: String(event.taskId).slice(0, MAX_TEXT), attempt: event.attempt, result: event.result, durationMs: event.durationMs };
    case 'depth':
      return { ...base, waiting: event.waiting, prioritized: event.prioritized, active: event.active, delayed: event.delayed, failed: event.failed };
    default:
      return undefined;
  }
}
