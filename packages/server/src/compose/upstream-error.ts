/**
 * The error a forwarded request fails with when its upstream is gone: the connection to it
 * closed (the process died, the socket dropped) while the request was in flight, or the
 * upstream is down and being reconnected. A JSON-RPC error (so `tools/call` answers it as a
 * protocol error, not an `isError` result) in the implementation-defined server range
 * (JSON-RPC 2.0 §5.1: -32000 to -32099), naming the mount in `data.upstream`.
 */
import { ConnectionClosedError, JsonRpcError, McpError } from '@statemcp/protocol';

/** The JSON-RPC code of {@link UpstreamUnavailableError}. */
export const UPSTREAM_UNAVAILABLE_ERROR_CODE = -32050;

/**
 * A request to a mounted upstream failed because the upstream is unavailable. Downstream
 * clients see code {@link UPSTREAM_UNAVAILABLE_ERROR_CODE} with `data: { upstream: prefix }`.
 *
 * @example
 * ```ts
 * try {
 *   await client.callTool({ name: 'files_read', arguments: { path: 'a.txt' } });
 * } catch (error) {
 *   if (error instanceof JsonRpcError && error.code === UPSTREAM_UNAVAILABLE_ERROR_CODE) console.log('files is down');
 * }
 * ```
 */
export class UpstreamUnavailableError extends JsonRpcError {
  /** The prefix of the mount whose upstream is unavailable. */
  readonly upstream: string;

  constructor(upstream: string, message: string, options?: { cause?: unknown }) {
    super(UPSTREAM_UNAVAILABLE_ERROR_CODE, message, { upstream }, options);
    this.upstream = upstream;
    Object.defineProperty(this, 'name', { value: 'UpstreamUnavailableError' }); // the base class types its name as a literal
  }

  /** `JsonRpcError` matches by brand; this class narrows it to its own name. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return JsonRpcError[Symbol.hasInstance](value) && (value as { name?: unknown }).name === 'UpstreamUnavailableError';
  }
}

/**
 * What a failed forwarded request rejects with: the upstream's own JSON-RPC errors and the
 * caller's cancellation pass unchanged; a lost connection becomes {@link UpstreamUnavailableError}.
 */
export function forwardedError(error: unknown, upstream: string, signal: AbortSignal): unknown {
  if (signal.aborted || error instanceof JsonRpcError) return error;
  if (error instanceof ConnectionClosedError || (error instanceof McpError && error.category === 'interrupted')) {
    return new UpstreamUnavailableError(upstream, `Upstream ${JSON.stringify(upstream)} is unavailable: ${error.message}`, { cause: error });
  }
  return error;
}
