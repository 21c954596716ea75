import { describe, expect, it } from 'vitest';
import { createAuthGate } from './auth-gate.js';
import { fromFetchRequest } from './inbound.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import { initializeBody, postInit } from './test-support.js';

const inbound = () => fromFetchRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { authorization: 'Bearer t' } }));

describe('createAuthGate', () => {
  it('admits a request at once, anonymous, when no hook authenticates (no promise per request)', () => {
    const admitted = createAuthGate({}).admit(inbound());
    expect(admitted).not.toBeInstanceOf(Promise);
    expect(admitted).toEqual({ authInfo: undefined, principal: undefined });
  });

  it('waits for the authenticate hook and binds the principal it names', async () => {
    const gate = createAuthGate({ authenticate: (request) => ({ user: request.headers.get('authorization') }), principalOf: (info) => (info as { user: string }).user });
    const admission = gate.admit(inbound());
    expect(admission).toBeInstanceOf(Promise);
    expect(await admission).toEqual({ authInfo: { user: 'Bearer t' }, principal: 'Bearer t' });
  });

  it('answers 401 when the hook throws, and reports the error only to onError', async () => {
    const errors: unknown[] = [];
    const gate = createAuthGate({ authenticate: () => Promise.reject(new Error('db at 10.0.0.5 down')), onError: (error) => errors.push(error) });
    const refused = await gate.admit(inbound());
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(401);
    expect(await (refused as Response).text()).not.toContain('10.0.0.5');
    expect(errors).toHaveLength(1);
  });

  it('lets a server answer 500 and report the error when admission itself throws (principalOf)', async () => {
    const errors: unknown[] = [];
    const server = createStreamableHttpServer({
      connect: () => undefined,
      authenticate: () => ({ user: 'a' }),
      principalOf: () => {
        throw new Error('principal store gone');
      },
      onError: (error) => errors.push(error),
    });
    const answer = await server.handleFetch(new Request('http://127.0.0.1/mcp', postInit(initializeBody())));
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32603 } });
    expect(errors).toEqual([new Error('principal store gone')]);
    await server.close();
  });
});
