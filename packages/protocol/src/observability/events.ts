/**
 * The typed inspection stream (docs/guide/lifecycle.md §Reading it). Pass `inspect` to a session to receive
 * every connection transition, request transition and message in or out, each tagged with
 * the session id (and request id where there is one).
 */
import type { JsonRpcMessage, RequestId } from '../jsonrpc/messages.js';
import type { ConnectionEventType, ConnectionStateKind } from '../machines/connection-types.js';
import type { RequestEventType, RequestStateKind } from '../machines/request.js';
import type { TaskEventType, TaskStatusKind } from '../machines/task.js';
import type { TraceContext } from './trace-context.js';

/** One event of the inspection stream: a connection or request transition, a message in or out, or a diagnostic. */
export type InspectEvent =
  | {
      readonly type: 'session.transition';
      readonly sessionId: string;
      readonly at: number;
      readonly from: ConnectionStateKind;
      readonly to: ConnectionStateKind;
      readonly event: ConnectionEventType;
    }
  /**
   * A request moved between states. Its first event has `from` and `to` both `created`
   * (the request entered the ledger); every later one is a real transition.
   */
  | {
      readonly type: 'request.transition';
      readonly sessionId: string;
      readonly at: number;
      readonly requestId: RequestId;
      readonly direction: 'outbound' | 'inbound';
      readonly method: string;
      readonly from: RequestStateKind;
      readonly to: RequestStateKind;
      readonly event: RequestEventType;
      /** Milliseconds since the request was created. */
      readonly elapsedMs: number;
      /** The validated W3C trace context the request carries (sent or received), when it has one. */
      readonly trace?: TraceContext;
      /** A Multi Round-Trip request that asked for (server) or gathered (client) input: its round and input keys. */
      readonly input?: RequestInputRound;
    }
  /**
   * A task (both task designs) moved between statuses, as the server that runs it or the client
   * that polls it saw the move. Its first event has `event: 'created'` and `from` equal to `to`
   * (the task entered view: created on the server, first seen on the client).
   */
  | {
      readonly type: 'task.transition';
      readonly sessionId: string;
      readonly at: number;
      readonly taskId: string;
      /** Which side saw the move: the server running the task or the client driving it. */
      readonly side: 'server' | 'client';
      /** The request that created the task (`tools/call`), when this side knows it. */
      readonly requestId?: RequestId;
      /** The tool the task runs, when this side knows it. */
      readonly tool?: string;
      readonly from: TaskStatusKind;
      readonly to: TaskStatusKind;
      /** The task machine's event, or `created` for the first event. */
      readonly event: TaskEventType | 'created';
      /** Milliseconds from the task's creation to this status (from its own `createdAt` / `lastUpdatedAt`). */
      readonly elapsedMs?: number;
    }
  | { readonly type: 'message.in'; readonly sessionId: string; readonly at: number; readonly message: unknown }
  | { readonly type: 'message.out'; readonly sessionId: string; readonly at: number; readonly message: JsonRpcMessage }
  | {
      readonly type: 'diagnostic';
      readonly sessionId: string;
      readonly at: number;
      readonly message: string;
      readonly detail?: unknown;
    };

/**
 * The input side of one Multi Round-Trip round, on the `request.transition` events of the
 * request that took it. Client: every event from the round's `awaitInput` on carries it, with
 * `firstId`, the id the request was first sent under (each retry goes out under a new id).
 * Server: the inbound request that answered with an `InputRequiredResult` carries the keys.
 */
export interface RequestInputRound {
  /** 1 for the first round; counted by the client (the server sees each retry as a new request). */
  readonly round?: number;
  /** The keys of the round's `inputRequests`. */
  readonly keys: readonly string[];
  /** Client: the id the request was first sent under. */
  readonly firstId?: RequestId;
}

/** What a task move reports through `Session.reportTaskTransition`; the session adds `type`, `sessionId` and `at`. */
export type TaskTransitionReport = Omit<Extract<InspectEvent, { readonly type: 'task.transition' }>, 'type' | 'sessionId' | 'at'>;

/** Receives every {@link InspectEvent} of a session (the `inspect` option). */
export type InspectListener = (event: InspectEvent) => void;
