/**
 * The typed inspection stream (architecture §7). Pass `inspect` to a session to receive
 * every connection transition, request transition and message in or out, each tagged with
 * the session id (and request id where there is one).
 */
import type { JsonRpcMessage, RequestId } from '../jsonrpc/messages.js';
import type { ConnectionEventType, ConnectionStateKind } from '../machines/connection-types.js';
import type { RequestEventType, RequestStateKind } from '../machines/request.js';
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

/** Receives every {@link InspectEvent} of a session (the `inspect` option). */
export type InspectListener = (event: InspectEvent) => void;
