/**
 * The JSON-RPC envelope of one Streamable HTTP POST, classified once before the request is
 * routed (JSON-RPC 2.0 §4–§6; MCP 2025-03-26, Transports §Sending Messages to the Server):
 * one message or a batch of them, each a request, notification or response; an empty batch, a
 * nested batch, an invalid member or `initialize` inside a batch refuses the whole POST. The
 * rest of the server routes on the result — its messages, request ids and `initialize` — and
 * never looks at the raw body again. Whether a batch is allowed at all depends on the
 * revision, decided once the version of the request is known ({@link batchRule}).
 */
import {
  batchRefusal,
  classifyMessage,
  initializeInBatch,
  nestedBatch,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type RequestId,
} from '@statemcp/protocol';
import { errorResponse } from './http-response.js';

/** One POST body, classified. */
export interface PostEnvelope {
  /** The messages as classified (one, or the members of a batch). */
  readonly messages: readonly JsonRpcMessage[];
  readonly batch: boolean;
  /** Ids of the requests among `messages`, in order. */
  readonly requestIds: readonly RequestId[];
  /** The id of the `initialize` request this POST carries, if any (never in a batch). */
  readonly initializeId: RequestId | undefined;
  /** The id an error answer names: the one request of a single-request POST (JSON-RPC 2.0 §5). */
  readonly replyId: RequestId | undefined;
}

/** A -32600 answer (HTTP 400) naming `id`, worded by the protocol's envelope rules. */
export function refuseEnvelope(rule: JsonRpcErrorObject, id: RequestId | null = null): Response {
  return errorResponse(400, rule.code, rule.message, { id });
}

/** Classifies a parsed POST body; the refusal to answer when its envelope is not valid. */
export function readEnvelope(value: unknown): PostEnvelope | Response {
  const batch = Array.isArray(value);
  const items: readonly unknown[] = batch ? (value as unknown[]) : [value];
  if (items.length === 0) return refuseEnvelope(batchRefusal(items, undefined) ?? nestedBatch());
  const messages: JsonRpcMessage[] = [];
  const requestIds: RequestId[] = [];
  let initializeId: RequestId | undefined;
  for (const item of items) {
    const classified = classifyMessage(item);
    switch (classified.kind) {
      case 'invalid':
        // A malformed response or notification is refused without naming an id (JSON-RPC 2.0 §5).
        return errorResponse(400, classified.code, `Invalid Request: ${classified.reason}`, { id: classified.reply ? classified.id : null });
      case 'batch':
        return refuseEnvelope(nestedBatch());
      case 'request':
        if (classified.message.method === 'initialize') {
          if (batch) return refuseEnvelope(initializeInBatch(), classified.message.id);
          initializeId = classified.message.id;
        }
        requestIds.push(classified.message.id);
        messages.push(classified.message);
        break;
      case 'notification':
      case 'result':
      case 'error':
        messages.push(classified.message);
        break;
    }
  }
  return { messages, batch, requestIds, initializeId, replyId: !batch && requestIds.length === 1 ? requestIds[0] : undefined };
}

/** The refusal of a batch in `version` (batches exist in 2025-03-26 only), or undefined. */
export function batchRule(envelope: PostEnvelope, version: string | undefined): Response | undefined {
  const rule = envelope.batch ? batchRefusal(envelope.messages, version) : undefined;
  return rule === undefined ? undefined : refuseEnvelope(rule);
}
