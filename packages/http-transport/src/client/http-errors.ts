/**
 * Turning a refused HTTP response into the protocol package's typed errors: 401/403 become
 * `AuthRequiredError` (`@statemcp/protocol`), anything else a {@link TransportError}. The HTTP details
 * (status, a bounded body excerpt, `WWW-Authenticate`) travel as the `cause`, an
 * {@link HttpResponseError}, so callers can branch on `error.category` and still read the
 * status when they need it.
 */
import { AuthRequiredError, MessageTooLargeError, RedirectRefusedError, TransportError, type McpError } from '@statemcp/protocol';
import { readBoundedText } from '@statemcp/protocol/internal';

/** Longest body excerpt kept on an {@link HttpResponseError}. */
const BODY_EXCERPT_LIMIT = 2048;
/** The most bytes read for an excerpt (a character takes at most 4). */
export const BODY_EXCERPT_BYTES = BODY_EXCERPT_LIMIT * 4;
/** Longest excerpt of the body quoted in an error message. */
const MESSAGE_EXCERPT_LIMIT = 160;

/**
 * A short, readable excerpt of a response body for an error message: markup and runs of
 * white space folded (an HTML error page reads as its text), cut to a few words.
 */
export function messageExcerpt(body: string): string {
  const text = body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MESSAGE_EXCERPT_LIMIT ? `${text.slice(0, MESSAGE_EXCERPT_LIMIT)}…` : text;
}

/** The HTTP side of a refused request; found as the `cause` of transport errors. */
export class HttpResponseError extends Error {
  override readonly name = 'HttpResponseError';
  /** The HTTP status code. */
  readonly status: number;
  /** The HTTP method of the refused request. */
  readonly method: string;
  /** The URL of the refused request. */
  readonly url: string;
  /** The first 2 KiB of the response body, if any. */
  readonly body: string;
  /** The `WWW-Authenticate` header, for 401/403 (OAuth discovery starts from it). */
  readonly wwwAuthenticate: string | undefined;

  constructor(method: string, url: string, status: number, statusText: string, body: string, wwwAuthenticate: string | undefined) {
    const excerpt = messageExcerpt(body);
    super(`${method} ${url} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${excerpt ? `: ${excerpt}` : ''}`);
    this.status = status;
    this.method = method;
    this.url = url;
    this.body = body;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

/**
 * Reads at most {@link BODY_EXCERPT_LIMIT} characters of a body, never throwing. Only the start
 * of the body is read (an error page that never ends is cut there).
 */
export async function readBodyExcerpt(response: Response): Promise<string> {
  try {
    return clipExcerpt(await readBoundedText(response, { maxBytes: BODY_EXCERPT_BYTES, overflow: 'truncate' }));
  } catch {
    return '';
  }
}

/** The excerpt kept of a body's first {@link BODY_EXCERPT_BYTES} bytes. */
export function clipExcerpt(text: string): string {
  return text.length > BODY_EXCERPT_LIMIT ? text.slice(0, BODY_EXCERPT_LIMIT) : text;
}

/** Builds the typed error for a refused response whose body was already read. */
export function errorForStatus(method: string, url: string, response: Response, body: string): InstanceType<typeof TransportError> {
  return refusalError(method, url, response.status, response.statusText, response.headers.get('www-authenticate') ?? undefined, body);
}

/** {@link errorForStatus} from the parts of a refused answer (any shape of response). */
export function refusalError(method: string, url: string, status: number, statusText: string, wwwAuthenticate: string | undefined, body: string): InstanceType<typeof TransportError> {
  const cause = new HttpResponseError(method, url, status, statusText, body, wwwAuthenticate);
  if (status === 401 || status === 403) {
    return new AuthRequiredError(`${method} ${url} was refused with HTTP ${status}${wwwAuthenticate ? ` (WWW-Authenticate: ${wwwAuthenticate})` : ''}`, { cause });
  }
  return new TransportError(cause.message, { cause });
}

/**
 * Wraps a network failure (DNS, refused connection, reset) in a {@link TransportError}. A refused
 * redirect or an oversized body is already typed (`RedirectRefusedError`, `MessageTooLargeError`)
 * and naming what happened: it is passed on as it is.
 */
export function networkError(method: string, url: string, error: unknown): McpError {
  if (error instanceof RedirectRefusedError || error instanceof MessageTooLargeError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new TransportError(`${method} ${url} failed: ${reason}`, { cause: error });
}

/** `METHOD url answered HTTP status` without the body, for a second mention of a refusal. */
export function briefly(error: unknown): string {
  if (error instanceof Error && error.cause instanceof HttpResponseError) {
    const { method, url, status } = error.cause;
    return `${method} ${url} answered HTTP ${status}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The HTTP status behind a transport error, if it came from a response. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof Error && error.cause instanceof HttpResponseError ? error.cause.status : undefined;
}
