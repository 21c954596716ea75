/**
 * The authentication step of the server, between the Host/Origin check and the sessions: the
 * `authorization` layer (or the plain `authenticate` hook) turns a request into its auth info
 * and the principal sessions are bound to, or into the refusal to send.
 */
import { McpError } from '@statemcp/protocol';
import { HttpErrorCode, errorResponse } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import type { StreamableHttpServerOptions } from './server-options.js';
import { sessionPrincipal } from './session-principal.js';

/** A request that passed authentication. */
export interface Admitted {
  readonly authInfo: unknown;
  /** The principal a session opened by this request is bound to (`undefined`: none). */
  readonly principal: string | undefined;
}

const ANONYMOUS: Admitted = Object.freeze({ authInfo: undefined, principal: undefined });

/** Requests the cluster serves a second time (relayed to the session's owner, or after adopting it). */
const readmittedRequests = new WeakSet<Request>();

/** Marks a request built to be served again after an instance already admitted it (see `AuthenticateContext.readmitted`). */
export function readmitted(request: Request): Request {
  readmittedRequests.add(request);
  return request;
}

export interface AuthGate {
  /** The authorization layer's own answer for this request (its metadata document), if any. */
  serve(inbound: InboundRequest): Response | undefined;
  /** Who sent the request, or the refusal; at once (no promise) when no hook authenticates. */
  admit(inbound: InboundRequest): Admitted | Promise<Admitted | Response>;
  /** A refusal of the parsed messages (scope), if any. */
  authorize(admitted: Admitted, messages: readonly unknown[]): Response | undefined;
}

/** The gate of a server's `authorization` layer or `authenticate` hook (the Streamable HTTP and WebSocket servers share it). */
export function createAuthGate(options: Pick<StreamableHttpServerOptions, 'authenticate' | 'authorization' | 'principalOf' | 'onError'>): AuthGate {
  const layer = options.authorization;
  const report = (error: unknown): void => options.onError?.(error);
  const authenticate =
    layer === undefined ? options.authenticate : (request: Request) => layer.authenticate(request, { report, readmitted: readmittedRequests.has(request) });
  // Every session is bound to its principal, however the request was authenticated (session-principal.ts).
  const principalOf = layer?.principalOf === undefined ? options.principalOf : (authInfo: unknown) => layer.principalOf?.(authInfo);
  /** The hook's verdict on a request, with the principal its sessions are bound to. */
  const admitWith = async (hook: (request: Request) => unknown, inbound: InboundRequest): Promise<Admitted | Response> => {
    let authInfo: unknown;
    try {
      authInfo = await hook(inbound.toRequest());
    } catch (error) {
      // The reason goes to onError only: an exception's text may name hosts, URLs or internals.
      report(error);
      if (error instanceof McpError && error.category === 'interrupted') {
        return errorResponse(503, HttpErrorCode.Refused, 'Service Unavailable: authentication cannot be checked right now', { headers: { 'retry-after': '1' } });
      }
      return errorResponse(401, HttpErrorCode.Refused, 'Unauthorized', { headers: { 'www-authenticate': 'Bearer' } });
    }
    if (authInfo instanceof Response) return authInfo;
    return { authInfo, principal: await sessionPrincipal(authInfo, principalOf) };
  };
  return {
    serve: (inbound) => (layer?.serve === undefined ? undefined : layer.serve(inbound.toRequest())),
    admit: (inbound) => (authenticate === undefined ? ANONYMOUS : admitWith(authenticate, inbound)),
    authorize: (admitted, messages) => (layer?.authorize === undefined ? undefined : layer.authorize(admitted.authInfo, messages)),
  };
}
