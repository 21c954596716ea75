/**
 * Turning a refused HTTP response into the protocol package's typed errors: 401/403 become
 * {@link AuthRequiredError}, anything else a {@link TransportError}. The HTTP details
 * (status, a bounded body excerpt, `WWW-Authenticate`) travel as the `cause`, an
 * {@link HttpResponseError}, so callers can branch on `error.category` and still read the
 * status when they need it.
 */
import { AuthRequiredError, TransportError } from '@statemcp/protocol';

/** Longest body excerpt kept on an {@link HttpResponseError}. */
const BODY_EXCERPT_LIMIT = 2048;

/** The HTTP side of a refused request; found as the `cause` of transport errors. */
export class HttpResponseError extends Error {
  override readonly name = 'HttpResponseError';
  /** The HTTP status code. */
  readonly status: number;
  /** The HTTP method of the refused request. */
  readonly method: string;
  /** The first 2 KiB of the response body, if any. */
  readonly body: string;
  /** The `WWW-Authenticate` header, for 401/403 (OAuth discovery starts from it). */
  readonly wwwAuthenticate: string | undefined;

  constructor(method: string, url: string, status: number, statusText: string, body: string, wwwAuthenticate: string | undefined) {
    super(`${method} ${url} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${body ? `: ${body.slice(0, 200)}` : ''}`);
    this.status = status;
    this.method = method;
    this.body = body;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

/** Reads at most {@link BODY_EXCERPT_LIMIT} characters of a body, never throwing. */
export async function readBodyExcerpt(response: Response): Promise<string> {
  try {
    const text = await response.text();
    return text.length > BODY_EXCERPT_LIMIT ? text.slice(0, BODY_EXCERPT_LIMIT) : text;
  } catch {
    return '';
  }
}

/** Builds the typed error for a refused response whose body was already read. */
export function errorForStatus(method: string, url: string, response: Response, body: string): InstanceType<typeof TransportError> {
  const cause = new HttpResponseError(
    method,
    url,
    response.status,
    response.statusText,
    body,
    response.headers.get('www-authenticate') ?? undefined,
  );
  if (response.status === 401 || response.status === 403) {
    return new AuthRequiredError(
      `${method} ${url} was refused with HTTP ${response.status}${cause.wwwAuthenticate ? ` (WWW-Authenticate: ${cause.wwwAuthenticate})` : ''}`,
      { cause },
    );
  }
  return new TransportError(cause.message, { cause });
}

/** Wraps a network failure (DNS, refused connection, reset) in a {@link TransportError}. */
export function networkError(method: string, url: string, error: unknown): InstanceType<typeof TransportError> {
  const reason = error instanceof Error ? error.message : String(error);
  return new TransportError(`${method} ${url} failed: ${reason}`, { cause: error });
}

/** The HTTP status behind a transport error, if it came from a response. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof Error && error.cause instanceof HttpResponseError ? error.cause.status : undefined;
}
