/**
 * The authentication step of the server, between the Host/Origin check and the sessions: the
 * `authorization` layer (or the plain `authenticate` hook) turns a request into its auth info
 * and the principal sessions are bound to, or into the refusal to send.
 */
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

export interface AuthGate {
  /** The authorization layer's own answer for this request (its metadata document), if any. */
  serve(inbound: InboundRequest): Response | undefined;
  admit(inbound: InboundRequest): Promise<Admitted | Response>;
  /** A refusal of the parsed messages (scope), if any. */
  authorize(admitted: Admitted, messages: readonly unknown[]): Response | undefined;
}

/** The gate of a server's `authorization` layer or `authenticate` hook (the Streamable HTTP and WebSocket servers share it). */
export function createAuthGate(options: Pick<StreamableHttpServerOptions, 'authenticate' | 'authorization' | 'principalOf'>): AuthGate {
  const layer = options.authorization;
  const authenticate = layer === undefined ? options.authenticate : (request: Request) => layer.authenticate(request);
  // Every session is bound to its principal, however the request was authenticated (session-principal.ts).
  const principalOf = layer?.principalOf === undefined ? options.principalOf : (authInfo: unknown) => layer.principalOf?.(authInfo);
  return {
    serve: (inbound) => (layer?.serve === undefined ? undefined : layer.serve(inbound.toRequest())),
    async admit(inbound) {
      if (authenticate === undefined) return ANONYMOUS;
      let authInfo: unknown;
      try {
        authInfo = await authenticate(inbound.toRequest());
      } catch (error) {
        return errorResponse(401, HttpErrorCode.Refused, `Unauthorized: ${error instanceof Error ? error.message : 'authentication failed'}`, {
          headers: { 'www-authenticate': 'Bearer' },
        });
      }
      if (authInfo instanceof Response) return authInfo;
      return { authInfo, principal: await sessionPrincipal(authInfo, principalOf) };
    },
    authorize: (admitted, messages) => (layer?.authorize === undefined ? undefined : layer.authorize(admitted.authInfo, messages)),
  };
}
