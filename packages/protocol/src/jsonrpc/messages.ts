/**
 * JSON-RPC 2.0 message shapes as MCP uses them, and the hand-written classifier that sorts
 * any inbound value into request / notification / result / error, or rejects it with the
 * exact JSON-RPC code. This is the one envelope check per message: params
 * are validated later, once, against the negotiated revision's schema.
 */

/** A request id: a string or an integer. Never `null` (MCP 2025-11-25 basic/index §Messages). */
export type RequestId = string | number;

/** The JSON value space, for params and results that are passed through untouched. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An object of params or a result. */
export type JsonObject = { [key: string]: unknown };

/** A JSON-RPC 2.0 request: `id`, `method`, optional `params`. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC 2.0 notification: `method` and optional `params`, no `id`. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** A successful JSON-RPC 2.0 response: the request's `id` and its `result`. */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

/** The `error` member of a JSON-RPC error response: `code`, `message`, optional `data`. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC 2.0 error response; `id` is `null` when the request's id could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /**
   * `null` when the request's id could not be read (JSON-RPC 2.0 §5; statemcp always sends it).
   * Peers of 2025-11-25 and later may omit it instead, so an inbound one may lack it.
   */
  id?: RequestId | null;
  error: JsonRpcErrorObject;
}

/** Either kind of JSON-RPC response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any JSON-RPC message: request, notification or response. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** JSON-RPC 2.0 and MCP error codes, by name. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** `resources/read` of an unknown URI, 2024-11-05 … 2025-11-25. */
  ResourceNotFound: -32002,
  /** 2025-11-25: the request needs URL-mode elicitations first. */
  UrlElicitationRequired: -32042,
  /** 2026-07-28: an HTTP header disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the protocol version is not supported. */
  UnsupportedProtocolVersion: -32022,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The result of classifying one inbound value. */
export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'result'; message: JsonRpcResultResponse }
  | { kind: 'error'; message: JsonRpcErrorResponse }
  | { kind: 'batch'; items: unknown[] }
  /**
   * Not a valid JSON-RPC message. `id` is the request id when it could be read, so the
   * -32600 reply can carry it; `reply` is false when the spec says to drop silently
   * (a malformed response cannot be answered).
   */
  | { kind: 'invalid'; code: number; reason: string; id: RequestId | undefined; reply: boolean };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a string or an integer (JSON-RPC ids; MCP forbids `null` and fractions). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function invalid(reason: string, id: RequestId | undefined, reply = true): Classified {
  return { kind: 'invalid', code: ErrorCode.InvalidRequest, reason, id, reply };
}

/**
 * Sorts one parsed JSON value into a JSON-RPC message kind without throwing.
 * Arrays come back as `batch`; whether a batch is legal depends on the revision
 * (`batchRefusal` in `envelope-rules.ts`) and is for the caller to decide.
 */
export function classifyMessage(value: unknown): Classified {
  if (Array.isArray(value)) return { kind: 'batch', items: value };
  if (!isPlainObject(value)) return invalid('A JSON-RPC message must be an object', undefined);
  const rawId = value.id;
  const readableId = isRequestId(rawId) ? rawId : undefined;
  if (value.jsonrpc !== '2.0') return invalid('The "jsonrpc" member must be exactly "2.0"', readableId, !('result' in value || 'error' in value));
  const hasMethod = 'method' in value;
  if (hasMethod) {
    if (typeof value.method !== 'string' || value.method.length === 0) {
      return invalid('The "method" member must be a non-empty string', readableId);
    }
    const params = value.params;
    if (params !== undefined && !isPlainObject(params)) {
      return invalid('The "params" member must be an object', readableId);
    }
    if (!('id' in value)) {
      const message: JsonRpcNotification = { jsonrpc: '2.0', method: value.method };
      if (params !== undefined) message.params = params;
      return { kind: 'notification', message };
    }
    if (rawId === null) return invalid('A request id must not be null', undefined);
    if (readableId === undefined) return invalid('A request id must be a string or an integer', undefined);
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: readableId, method: value.method };
    if (params !== undefined) message.params = params;
    return { kind: 'request', message };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult && hasError) return invalid('A response must not carry both "result" and "error"', readableId, false);
  if (hasResult) {
    if (readableId === undefined) return invalid('A result response needs a string or integer id', undefined, false);
    if (!isPlainObject(value.result)) return invalid('A result must be an object', readableId, false);
    return { kind: 'result', message: { jsonrpc: '2.0', id: readableId, result: value.result } };
  }
  if (hasError) {
    const error = value.error;
    if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return invalid('An error response needs an error object with an integer code and a message', readableId, false);
    }
    if (rawId !== undefined && rawId !== null && readableId === undefined) {
      return invalid('An error response id must be a string, an integer, or absent', undefined, false);
    }
    const errorObject: JsonRpcErrorObject = { code: error.code as number, message: error.message };
    if ('data' in error) errorObject.data = error.data;
    const message: JsonRpcErrorResponse = { jsonrpc: '2.0', error: errorObject };
    if (readableId !== undefined) message.id = readableId;
    return { kind: 'error', message };
  }
  return invalid('Not a request, notification or response', readableId);
}

/**
 * The `result` of `value` when `value` is a well-formed result response (JSON-RPC 2.0 §5: `"jsonrpc":
 * "2.0"`, a string or integer id, an object `result`, no `method` nor `error`), else undefined. It
 * accepts exactly what {@link classifyMessage} classifies as `result`, without the normalized copy
 * and the wrapper: a session reads a reply's id and result from the parsed value itself.
 */
export function resultOf(value: unknown): JsonObject | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || 'method' in value || 'error' in value || !isRequestId(value.id)) return undefined;
  const result = value.result;
  return isPlainObject(result) ? result : undefined;
}

/**
 * `value` as a request when it is a well-formed one (JSON-RPC 2.0 §4: `"jsonrpc": "2.0"`, a
 * non-empty string `method`, a string or integer id, `params` absent or an object), else
 * undefined. It accepts exactly what {@link classifyMessage} classifies as `request` and returns
 * the same normalized copy, without the wrapper: most of what a server receives.
 */
export function requestOf(value: unknown): JsonRpcRequest | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return undefined;
  const { id, method, params } = value;
  if (typeof method !== 'string' || method.length === 0 || !isRequestId(id) || (params !== undefined && !isPlainObject(params))) return undefined;
  const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
  if (params !== undefined) message.params = params;
  return message;
}

/** Outcome of parsing a text frame: a JSON value, or a -32700 parse error. */
export type Parsed = { ok: true; value: unknown } | { ok: false; code: typeof ErrorCode.ParseError; reason: string };

/** Parses one text frame (a stdio line, an HTTP body, a WebSocket frame) without throwing. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, code: ErrorCode.ParseError, reason: error instanceof Error ? error.message : 'Invalid JSON' };
  }
}

/**
 * Builds an error response. When the request's id could not be read (unparseable JSON, an
 * invalid id, a malformed message), the id is `null`, as JSON-RPC 2.0 §5 requires; it is never
 * left out, and never `null` when the id could be read.
 */
export function errorResponse(id: RequestId | null | undefined, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id: id ?? null, error };
}

export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value);
}
