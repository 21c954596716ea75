/**
 * One error family with two kinds (docs/guide/errors.md):
 * - {@link JsonRpcError}: a wire error with a numeric code, crossing the wire either way;
 * - {@link McpError} subclasses with a stable string `code`: local errors that never pretend
 *   to come from the peer (timeouts, cancellation, closed connections, wrong state, …).
 *
 * Both extend {@link StatemcpError}, which carries a `category` from the one table in
 * `categories.ts` and a `Symbol.for` brand so `instanceof` works across two copies of
 * this package in one process.
 */
import { LOCAL_ERROR_CATEGORIES, LocalErrorCode, categoryOfWireCode, type ErrorCategory } from './categories.js';
import { ErrorCode, type JsonRpcErrorObject, type RequestId } from '../jsonrpc/messages.js';

const BRAND = Symbol.for('statemcp.error');
const WIRE_BRAND = Symbol.for('statemcp.error.wire');
const LOCAL_BRAND = Symbol.for('statemcp.error.local');

function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/** Base of every statemcp error. */
export abstract class StatemcpError extends Error {
  abstract readonly category: ErrorCategory;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** `instanceof` that also recognises errors from another copy of the package (a second installed version), by brand. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this === StatemcpError) return hasBrand(value, BRAND);
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * A JSON-RPC error: received from the peer in an error response, or thrown by a handler
 * to choose the exact code of the error reply.
 *
 * @example
 * ```ts
 * throw new JsonRpcError(ErrorCode.InvalidParams, 'Unknown tool: nope');
 * ```
 */
export class JsonRpcError extends StatemcpError {
  override readonly name = 'JsonRpcError';
  readonly code: number;
  readonly data: unknown;
  readonly category: ErrorCategory;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, WIRE_BRAND, { value: true });
    this.code = code;
    this.data = data;
    this.category = categoryOfWireCode(code);
  }

  /** The `error` member of a JSON-RPC error response. */
  toJSON(): JsonRpcErrorObject {
    const object: JsonRpcErrorObject = { code: this.code, message: this.message };
    if (this.data !== undefined) object.data = this.data;
    return object;
  }

  /** The error a JSON-RPC error object received from the peer stands for. */
  static fromObject(error: JsonRpcErrorObject): JsonRpcError {
    return new JsonRpcError(error.code, error.message, error.data);
  }

  /** `instanceof` that also recognises errors from another copy of the package (a second installed version), by brand. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, WIRE_BRAND);
  }
}

/** Base of local errors, with a stable string `code`. */
export class McpError extends StatemcpError {
  override readonly name: string = 'McpError';
  readonly code: LocalErrorCode;
  readonly category: ErrorCategory;

  constructor(code: LocalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, LOCAL_BRAND, { value: true });
    this.code = code;
    this.category = LOCAL_ERROR_CATEGORIES[code];
  }

  /** `instanceof` that also recognises errors from another copy of the package (a second installed version), by brand. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this === McpError) return hasBrand(value, LOCAL_BRAND);
    // Subclasses match by name, so a copy of the class from another bundle still matches.
    return hasBrand(value, LOCAL_BRAND) && (value as { name?: unknown }).name === this.name;
  }
}

function localClass<const N extends string>(name: N, code: LocalErrorCode) {
  const cls = class extends McpError {
    override readonly name: string = name;
    constructor(message: string, options?: { cause?: unknown }) {
      super(code, message, options);
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true });
  return cls;
}

/** No response arrived within the request's timeout (or its hard maximum). */
export class RequestTimeoutError extends McpError {
  override readonly name: string = 'RequestTimeoutError';
  readonly requestId: RequestId;
  readonly timeoutMs: number;
  constructor(requestId: RequestId, timeoutMs: number, options?: { cause?: unknown; maximum?: boolean }) {
    super(
      LocalErrorCode.RequestTimeout,
      `Request ${String(requestId)} timed out after ${timeoutMs} ms${options?.maximum === true ? ' (hard maximum)' : ''}`,
      options,
    );
    this.requestId = requestId;
    this.timeoutMs = timeoutMs;
  }
}

/** The request was cancelled: by the caller's AbortSignal, or by the peer. */
export class RequestCancelledError extends McpError {
  override readonly name: string = 'RequestCancelledError';
  readonly reason: string | undefined;
  constructor(message: string, options?: { cause?: unknown; reason?: string }) {
    super(LocalErrorCode.RequestCancelled, message, options);
    this.reason = options?.reason;
  }
}

/** The connection ended before the request settled. Carries the close reason and details. */
export class ConnectionClosedError extends McpError {
  override readonly name: string = 'ConnectionClosedError';
  readonly details: Readonly<Record<string, unknown>> | undefined;
  constructor(message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(LocalErrorCode.ConnectionClosed, message, options);
    this.details = options?.details;
  }
}

/** An action that the connection's current state does not allow. */
export class InvalidStateError extends McpError {
  override readonly name: string = 'InvalidStateError';
  readonly state: string;
  constructor(message: string, state: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.InvalidState, message, options);
    this.state = state;
  }
}

/** `connect()` called on a client or server that already has a connection. */
export const AlreadyConnectedError = localClass('AlreadyConnectedError', LocalErrorCode.AlreadyConnected);

/** The peer answered with (or asked for) a protocol version this side does not speak. */
export class UnsupportedProtocolVersionError extends McpError {
  override readonly name: string = 'UnsupportedProtocolVersionError';
  readonly requested: string;
  readonly supported: readonly string[];
  constructor(requested: string, supported: readonly string[], options?: { cause?: unknown }) {
    super(
      LocalErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version ${JSON.stringify(requested)}; supported: ${supported.join(', ')}`,
      options,
    );
    this.requested = requested;
    this.supported = supported;
  }

  /** The -32602 "Unsupported protocol version" wire error with `data.supported` and `data.requested`. */
  toJsonRpcError(): JsonRpcError {
    return new JsonRpcError(ErrorCode.InvalidParams, 'Unsupported protocol version', {
      supported: [...this.supported],
      requested: this.requested,
    });
  }
}

/**
 * The server forgot an HTTP session and the handshake run again to continue it found a
 * different server: another protocol version, or a capability the session relied on is gone.
 * The session ends rather than mix the old and the new; connect again to start afresh.
 */
export class SessionChangedError extends McpError {
  override readonly name: string = 'SessionChangedError';
  /** The version and capabilities before and after the new handshake. */
  readonly previous: { readonly version: string; readonly capabilities: Readonly<Record<string, unknown>> };
  readonly next: { readonly version: string; readonly capabilities: Readonly<Record<string, unknown>> };
  constructor(message: string, previous: SessionChangedError['previous'], next: SessionChangedError['next'], options?: { cause?: unknown }) {
    super(LocalErrorCode.SessionChanged, message, options);
    this.previous = previous;
    this.next = next;
  }
}

/**
 * The server forgot the HTTP session (MCP 2025-11-25 Transports §Session Management: a 404 for
 * the `Mcp-Session-Id`). A transport rejects a message that met the 404 with it: the message
 * never reached a session, and the session's runner holds it until the handshake run again
 * has replaced the session. The connection ends with it when the replacement is forgotten too
 * before it answered anything (the server cannot keep a session).
 */
export class SessionExpiredError extends McpError {
  override readonly name: string = 'SessionExpiredError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.SessionExpired, message, options);
  }
}

/** A method needs a capability the peer did not declare (or this side did not declare). */
export class CapabilityNotSupportedError extends McpError {
  override readonly name: string = 'CapabilityNotSupportedError';
  readonly method: string;
  readonly capability: string;
  constructor(method: string, capability: string, side: 'peer' | 'local' = 'peer', options?: { cause?: unknown; message?: string }) {
    super(
      LocalErrorCode.CapabilityNotSupported,
      options?.message !== undefined
        ? options.message
        : side === 'peer'
        ? `${method} needs the ${capability} capability, which the peer did not declare`
        : `${method} needs the ${capability} capability, which this side did not declare`,
      options,
    );
    this.method = method;
    this.capability = capability;
  }
}

/**
 * A collect-all listing (`listAllTools()` and the like, or a page iterator given `maxPages`)
 * reached its page bound while the server still offered a `nextCursor`. Carries the method and
 * the bound, so a caller can retry with a larger one or page by hand.
 */
export class TooManyPagesError extends McpError {
  override readonly name: string = 'TooManyPagesError';
  readonly method: string;
  readonly maxPages: number;
  constructor(method: string, maxPages: number, options?: { cause?: unknown }) {
    super(LocalErrorCode.TooManyPages, `${method}: the server still had more after ${maxPages} page(s); raise maxPages or page by hand`, options);
    this.method = method;
    this.maxPages = maxPages;
  }
}

/** What failed when a host checked a skill against its entry (skills extension). */
export type SkillVerificationFailure = 'invalid-entry' | 'unlisted' | 'size' | 'digest' | 'frontmatter' | 'unreadable';

/**
 * A skill's content did not match the entry it was loaded under (skills extension): a file of
 * the wrong size or digest, a `SKILL.md` whose frontmatter differs from the entry's, a file
 * the entry does not list, or an entry the host must not load. The content is never handed
 * out; refresh the entry (`client.getSkill(uri)`) and load again.
 */
export class SkillVerificationError extends McpError {
  override readonly name: string = 'SkillVerificationError';
  /** The skill's `SKILL.md` URI. */
  readonly skillUri: string;
  /** The file that failed (the skill's own URI for entry and frontmatter failures). */
  readonly uri: string;
  readonly failure: SkillVerificationFailure;
  constructor(skillUri: string, uri: string, failure: SkillVerificationFailure, message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.SkillVerificationFailed, message, options);
    this.skillUri = skillUri;
    this.uri = uri;
    this.failure = failure;
  }
}

/** Why an HTTP redirect was not followed (see {@link RedirectRefusedError}). */
export type RedirectRefusal =
  /** The `Location` names another origin (scheme, host or port). */
  | 'cross-origin'
  /** The `Location` leaves `https:` for `http:` (or for a scheme that is not HTTP). */
  | 'downgrade'
  /** A same-origin redirect, where the caller follows none (MCP and OAuth requests). */
  | 'not-followed'
  /** More redirects in a row than the follower allows. */
  | 'too-many'
  /** The `Location` is not a URL. */
  | 'invalid-location'
  /** A browser's `redirect: 'manual'` answer, which hides the `Location`. */
  | 'opaque'
  /** The `fetch` followed the redirect itself although it was asked not to. */
  | 'followed-by-fetch';

/**
 * An HTTP request was answered with a redirect this SDK does not follow: to another origin,
 * from `https:` to `http:`, or any redirect of an MCP or OAuth request. Nothing was sent to
 * the `Location`. `location` says where the server pointed (`undefined` when a browser hides
 * it); point the client at that URL yourself if you trust it.
 */
export class RedirectRefusedError extends McpError {
  override readonly name: string = 'RedirectRefusedError';
  /** The URL of the request that was redirected. */
  readonly url: string;
  /** The redirect's target, resolved against `url`; `undefined` when unknown. */
  readonly location: string | undefined;
  /** The HTTP status of the redirect (0 for a browser's opaque redirect). */
  readonly status: number;
  readonly refusal: RedirectRefusal;
  constructor(url: string, location: string | undefined, status: number, refusal: RedirectRefusal, message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.RedirectRefused, message, options);
    this.url = url;
    this.location = location;
    this.status = status;
    this.refusal = refusal;
  }
}


/**
 * A result from the peer did not match the method's result schema. `instanceof
 * InvalidResultError` also holds for its specific forms ({@link ToolOutputError}): every error
 * with the code `INVALID_RESULT` is one.
 */
export class InvalidResultError extends McpError {
  override readonly name: string = 'InvalidResultError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.InvalidResult, message, options);
  }

  /** `instanceof` by brand and code (for `InvalidResultError`) or by name (for a subclass), across copies of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this === InvalidResultError) return hasBrand(value, LOCAL_BRAND) && (value as { code?: unknown }).code === LocalErrorCode.InvalidResult;
    return hasBrand(value, LOCAL_BRAND) && (value as { name?: unknown }).name === this.name;
  }
}

/**
 * A tool's result broke its output schema (2025-06-18, "Tools: output schema": clients SHOULD
 * validate structured results against it): a successful result without `structuredContent`,
 * or one that does not validate against the schema the server listed (or the schema the caller
 * passed). The tool, the value received and the problem are kept for the caller.
 */
export class ToolOutputError extends InvalidResultError {
  override readonly name: string = 'ToolOutputError';
  /** The tool called. */
  readonly tool: string;
  /** The `structuredContent` received (`undefined` when the result had none). */
  readonly structuredContent: unknown;
  /** What is wrong with it, as the validator said. */
  readonly problem: string;
  constructor(tool: string, structuredContent: unknown, problem: string, options?: { cause?: unknown }) {
    super(`Tool ${tool} ${structuredContent === undefined ? 'declares an outputSchema but its result has no structuredContent' : `returned structuredContent that does not match its outputSchema: ${problem}`}`, options);
    this.tool = tool;
    this.structuredContent = structuredContent;
    this.problem = problem;
  }
}
/** A frame exceeded the transport's maximum message size. */
export const MessageTooLargeError = localClass('MessageTooLargeError', LocalErrorCode.MessageTooLarge);
/** The transport failed (spawn error, socket error, HTTP failure). */
export const TransportError = localClass('TransportError', LocalErrorCode.TransportError);
/** A server-to-client request has no channel to travel on (stateless HTTP). */
export const NoReturnChannelError = localClass('NoReturnChannelError', LocalErrorCode.NoReturnChannel);
/** Authentication or authorization was refused (HTTP 401/403). */
export const AuthRequiredError = localClass('AuthRequiredError', LocalErrorCode.AuthRequired);
/**
 * A modern-era request kept answering `input_required` (Multi Round-Trip Requests,
 * MCP 2026-07-28 basic/patterns/mrtr) past the client's `maxInputRounds`; the request is abandoned.
 */
export const InputRoundsExceededError = localClass('InputRoundsExceededError', LocalErrorCode.InputRoundsExceeded);
/** An invalid argument passed to an API of this SDK (e.g. non-increasing progress). */
export const InvalidArgumentError = localClass('InvalidArgumentError', LocalErrorCode.InvalidArgument);

/** Any error's category, including foreign errors (`unknown`) and abort errors (`interrupted`). */
export function categoryOf(error: unknown): ErrorCategory {
  if (error instanceof StatemcpError) return error.category;
  if (error instanceof Error && error.name === 'AbortError') return 'interrupted';
  return 'unknown';
}

/**
 * Converts whatever a handler threw into the wire error to send back: a {@link JsonRpcError}
 * keeps its code; {@link UnsupportedProtocolVersionError} becomes its -32602 form; invalid
 * arguments are -32602; anything else is -32603 with the message (the only place -32603 is
 * produced: a real internal fault).
 */
export function toWireError(error: unknown): JsonRpcError {
  if (error instanceof JsonRpcError) return error;
  if (error instanceof UnsupportedProtocolVersionError) return error.toJsonRpcError();
  if (error instanceof McpError && error.code === LocalErrorCode.InvalidArgument) {
    return new JsonRpcError(ErrorCode.InvalidParams, error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new JsonRpcError(ErrorCode.InternalError, message || 'Internal error', undefined, { cause: error });
}
