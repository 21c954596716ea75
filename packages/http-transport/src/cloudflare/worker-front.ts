/**
 * The stateless Worker in front of the Durable Objects that run a Streamable HTTP endpoint: it
 * holds no state and decides only which object serves each request.
 *
 * ```
 *  Mcp-Session-Id: <object id>.<random>   → that object (MCP 2025-11-25, Transports §Session
 *                                           Management); not an id of the namespace → 404
 *  POST initialize, no session id         → a new object (newUniqueId); its answer names the session
 *  anything else without a session id     → the shard object named shardOf(request): 2026-07-28
 *                                           stateless requests, their listen streams and tasks,
 *                                           and every refusal the server answers itself
 * ```
 *
 * The objects run every check of the server (Host/Origin, authentication, the session's
 * principal, the body's JSON-RPC rules); the front reads a POST body only to tell an
 * `initialize` apart, within the same size limit.
 */
import { ErrorCode } from '@statemcp/protocol';
import { HttpErrorCode, errorResponse } from '../server/http-response.js';
import { DEFAULT_MAX_BODY } from '../server/request-checks.js';
import { SESSION_ID_HEADER } from '../server/server-options.js';
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from './durable-object-types.js';

/** The shard every stateless request goes to unless {@link WorkerFrontOptions.shardOf} says otherwise. */
export const DEFAULT_SHARD = 'statemcp:stateless';

/** Options of {@link createWorkerFront}. */
export interface WorkerFrontOptions<Env> {
  /** The Durable Object namespace binding of the class that runs `createDurableObjectServer`. */
  namespace: (env: Env) => DurableObjectNamespaceLike;
  /**
   * The name of the object that serves a request without a session (2026-07-28 stateless
   * requests): its listen streams hear the changes its requests make, and `tasks/get`,
   * `tasks/update` and `tasks/cancel` find the tasks created there — so every request of one
   * client must map to the same name (e.g. from its credentials). Default: one object,
   * {@link DEFAULT_SHARD}.
   */
  shardOf?: (request: Request) => string;
  /** Largest POST body read to tell an `initialize` (413 beyond). Default 4 MiB, the server's default. */
  maxBodyBytes?: number;
}

/** A Worker's default export: `export default createWorkerFront(…)`. */
export interface WorkerFront<Env> {
  /** The Worker's `fetch` handler: forwards `request` to the object that serves it. */
  fetch(request: Request, env: Env): Promise<Response>;
}

/** The object a session id names (the part before its first dot), or `undefined` when it names none. */
function objectOfSession(namespace: DurableObjectNamespaceLike, sessionId: string): DurableObjectIdLike | undefined {
  const dot = sessionId.indexOf('.');
  if (dot <= 0) return undefined;
  try {
    return namespace.idFromString(sessionId.slice(0, dot));
  } catch {
    return undefined;
  }
}

/** True when `text` is a single JSON-RPC `initialize` request. */
function isInitialize(text: string): boolean {
  try {
    const message: unknown = JSON.parse(text);
    return typeof message === 'object' && message !== null && !Array.isArray(message) && (message as { method?: unknown }).method === 'initialize';
  } catch {
    return false;
  }
}

/**
 * The Worker that routes each request to its Durable Object.
 *
 * @example
 * ```ts
 * import { createWorkerFront } from '@statemcp/http-transport/cloudflare';
 *
 * export { McpObject } from './mcp-object.js';
 * export default createWorkerFront<{ MCP_OBJECT: DurableObjectNamespace }>({ namespace: (env) => env.MCP_OBJECT });
 * ```
 */
export function createWorkerFront<Env>(options: WorkerFrontOptions<Env>): WorkerFront<Env> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const shardOf = options.shardOf ?? (() => DEFAULT_SHARD);
  const forward = async (namespace: DurableObjectNamespaceLike, id: DurableObjectIdLike, request: Request): Promise<Response> => {
    try {
      return await namespace.get(id).fetch(request);
    } catch {
      // The object could not be reached (reset, overloaded): nothing ran, so the client may retry.
      return errorResponse(503, HttpErrorCode.Refused, 'Service Unavailable: the object serving this request cannot be reached', { headers: { 'retry-after': '1' } });
    }
  };
  return {
    fetch: async (request, env) => {
      const namespace = options.namespace(env);
      const sessionId = request.headers.get(SESSION_ID_HEADER);
      if (sessionId !== null && sessionId !== '') {
        const id = objectOfSession(namespace, sessionId);
        return id === undefined ? errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found') : forward(namespace, id, request);
      }
      if (request.method !== 'POST') return forward(namespace, namespace.idFromName(shardOf(request)), request);
      const declared = Number(request.headers.get('content-length') ?? '0');
      if (declared > maxBody) return errorResponse(413, ErrorCode.InvalidRequest, 'Payload Too Large');
      const body = await request.arrayBuffer();
      if (body.byteLength > maxBody) return errorResponse(413, ErrorCode.InvalidRequest, 'Payload Too Large');
      const forwarded = new Request(request.url, { method: 'POST', headers: request.headers, body });
      const text = new TextDecoder().decode(body);
      return forward(namespace, isInitialize(text) ? namespace.newUniqueId() : namespace.idFromName(shardOf(forwarded)), forwarded);
    },
  };
}
