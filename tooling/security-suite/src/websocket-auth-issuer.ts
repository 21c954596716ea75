/**
 * A token issuer for the WebSocket-auth check: an ES256 key pair, its JWKS, and signed access
 * tokens (`typ: at+jwt`) whose claims and lifetime a test chooses.
 */
import { SignJWT, exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';

export const WEBSOCKET_AUTH_ISSUER = 'https://auth.security-suite.test';

export interface WebSocketAuthIssuer {
  readonly jwks: { keys: JWK[] };
  /** A token for `audience` valid from now for `lifetimeSeconds` (negative: already expired). */
  token(audience: string, claims?: JWTPayload, lifetimeSeconds?: number): Promise<string>;
}

export async function createWebSocketAuthIssuer(): Promise<WebSocketAuthIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'ws-1', alg: 'ES256', use: 'sig' };
  return {
    jwks: { keys: [jwk] },
    token: (audience, claims = {}, lifetimeSeconds = 600) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope: 'mcp', client_id: 'ws-client', sub: 'alice', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'ws-1', typ: 'at+jwt' })
        .setIssuer(WEBSOCKET_AUTH_ISSUER)
        .setAudience(audience)
        .setIssuedAt(now - 60 + Math.min(0, lifetimeSeconds))
        .setExpirationTime(now + lifetimeSeconds)
        .sign(privateKey);
    },
  };
}
