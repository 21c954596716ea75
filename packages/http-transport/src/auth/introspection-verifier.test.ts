import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { introspectionVerifier, type IntrospectionVerifierOptions } from './introspection-verifier.js';
import { AuthorizationServerUnavailableError, TokenRejectedError } from './verifier-errors.js';

const RESOURCE = 'https://mcp.test.example/mcp';
const ISSUER = 'https://auth.test.example';
const NOW_MS = Date.UTC(2026, 10, 25, 12, 0, 0);

/** A verifier whose endpoint answers `answer` (a fetch that never touches a socket). */
function verifierAnswering(answer: () => Promise<Response>, options: Partial<IntrospectionVerifierOptions> = {}) {
  const calls: RequestInit[] = [];
  const verifier = introspectionVerifier({
    endpoint: 'https://auth.test.example/introspect',
    clientId: 'rs',
    clientSecret: 'secret',
    audience: RESOURCE,
    issuer: ISSUER,
    now: () => NOW_MS,
    fetch: (_input, init) => {
      calls.push(init ?? {});
      return answer();
    },
    ...options,
  });
  return { verifier, calls };
}

const json = (body: unknown, status = 200) => () => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
const active = { active: true, scope: 'mcp', client_id: 'c', sub: 'alice', iss: ISSUER, aud: RESOURCE, exp: NOW_MS / 1000 + 3600 };

describe('introspectionVerifier', () => {
  describe('#verify', () => {
    it('accepts an active token for this resource from the issuer', async () => {
      const { verifier, calls } = verifierAnswering(json(active));
      await expect(verifier.verify('t')).resolves.toMatchObject({ subject: 'alice', issuer: ISSUER, scopes: ['mcp'] });
      expect(calls[0]?.redirect).toBe('manual');
    });

    it.each([
      ['no aud', { ...active, aud: undefined }],
      ['another aud', { ...active, aud: ['https://other.example/mcp'] }],
      ['no iss', { ...active, iss: undefined }],
      ['another iss', { ...active, iss: 'https://evil.example' }],
      ['an exp in the past', { ...active, exp: NOW_MS / 1000 - 1 }],
      ['an nbf ahead', { ...active, nbf: NOW_MS / 1000 + 60 }],
      ['active false', { active: false }],
    ])('refuses an answer with %s', async (_name, answer) => {
      const { verifier } = verifierAnswering(json(answer));
      await expect(verifier.verify('t')).rejects.toBeInstanceOf(TokenRejectedError);
    });

    it('accepts an answer without aud when requireAudience is false, and without iss when no issuer is set', async () => {
      const verifier = introspectionVerifier({
        endpoint: 'https://auth.test.example/introspect',
        clientId: 'rs',
        clientSecret: 'secret',
        audience: RESOURCE,
        requireAudience: false,
        now: () => NOW_MS,
        fetch: json({ ...active, aud: undefined, iss: undefined }),
      });
      await expect(verifier.verify('t')).resolves.toMatchObject({ subject: 'alice', issuer: undefined });
    });

    it.each([
      ['an error status', json({ error: 'server_error' }, 500)],
      ['a body that is not an object', json([1, 2])],
      ['a network failure', () => Promise.reject(new TypeError('fetch failed'))],
    ])('throws AuthorizationServerUnavailableError on %s, and caches nothing', async (_name, answer) => {
      const { verifier, calls } = verifierAnswering(answer);
      await expect(verifier.verify('t')).rejects.toBeInstanceOf(AuthorizationServerUnavailableError);
      await expect(verifier.verify('t')).rejects.toBeInstanceOf(AuthorizationServerUnavailableError);
      expect(calls).toHaveLength(2);
    });

    it('gives up after timeoutMs on the injected clock', async () => {
      const clock = new SimulatedClock();
      let fetched!: () => void;
      const called = new Promise<void>((resolve) => (fetched = resolve));
      const { verifier, calls } = verifierAnswering(
        () =>
          new Promise<Response>((_resolve, reject) => {
            calls.at(-1)?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            fetched();
          }),
        { clock, timeoutMs: 2000 },
      );
      const verifying = verifier.verify('t');
      await called;
      clock.advance(1999);
      expect(calls.at(-1)?.signal?.aborted).toBe(false);
      clock.advance(1);
      const error: unknown = await verifying.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthorizationServerUnavailableError);
      expect((error as Error).message).toContain('timed out after 2000 ms');
    });

    it('asks every time with cache: false', async () => {
      const { verifier, calls } = verifierAnswering(json(active), { cache: false });
      await verifier.verify('t');
      await verifier.verify('t');
      expect(calls).toHaveLength(2);
    });
  });
});
