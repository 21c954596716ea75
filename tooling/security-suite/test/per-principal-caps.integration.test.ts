/**
 * Issue 32, LOW: one client cannot fill the server's session and event-stream capacity for
 * everyone. Each principal may hold at most `maxSessionsPerPrincipal` sessions (default 100,
 * below the global `maxSessions` of 10 000) and `maxEventStreamsPerPrincipal` open GET event
 * streams; beyond that its requests get 429 with `Retry-After` and a message naming the limit
 * (RFC 6585 §4), while other principals are still served.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ListeningServer, StreamableHttpServerOptions } from '@statemcp/http-transport/server';
import { UserClient, startServer } from '../src/session-binding-fixture.js';

let server: ListeningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: Partial<StreamableHttpServerOptions>): Promise<{ alice: UserClient; bob: UserClient }> {
  server = await startServer(options);
  return { alice: new UserClient(server.url, 'alice'), bob: new UserClient(server.url, 'bob') };
}

async function expectTooMany(response: Response, limit: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toMatch(/^[0-9]+$/);
  const body = (await response.json()) as { error: { message: string } };
  expect(body.error.message).toContain(limit);
}

describe('per-principal session limit', () => {
  it('refuses the sessions of a principal beyond maxSessionsPerPrincipal with 429 while another principal is served', async () => {
    const { alice, bob } = await serve({ maxSessions: 10, maxSessionsPerPrincipal: 3 });
    const sessions = [await alice.openSession(), await alice.openSession(), await alice.openSession()];
    await expectTooMany(await alice.initialize(), 'maxSessionsPerPrincipal');
    expect((await bob.openSession()).length).toBeGreaterThan(0);
    // Ending one of its sessions gives the principal room again.
    expect((await alice.delete(sessions[0] ?? '')).status).toBe(200);
    expect((await alice.openSession()).length).toBeGreaterThan(0);
  });

  it('keeps a default per-principal limit below the global cap', async () => {
    const { alice, bob } = await serve({ maxSessions: 150 });
    for (let opened = 0; opened < 100; opened++) {
      const init = await alice.initialize();
      await init.body?.cancel();
      expect(init.status).toBe(200);
    }
    await expectTooMany(await alice.initialize(), 'maxSessionsPerPrincipal');
    expect((await bob.openSession()).length).toBeGreaterThan(0);
  });
});

describe('per-principal event-stream limit', () => {
  it('refuses GET streams of a principal beyond maxEventStreamsPerPrincipal with 429 while another principal is served', async () => {
    const { alice, bob } = await serve({ maxEventStreamsPerPrincipal: 2 });
    const [first, second, third] = [await alice.openSession(), await alice.openSession(), await alice.openSession()];
    const open = [await alice.get(first), await alice.get(second)];
    expect(open.map((response) => response.status)).toEqual([200, 200]);
    await expectTooMany(await alice.get(third), 'maxEventStreamsPerPrincipal');

    const bobSession = await bob.openSession();
    const bobStream = await bob.get(bobSession);
    expect(bobStream.status).toBe(200);

    // The server ends the first stream with its session: the principal has room again.
    expect((await alice.delete(first)).status).toBe(200);
    const third200 = await alice.get(third);
    expect(third200.status).toBe(200);
    for (const response of [...open, bobStream, third200]) await response.body?.cancel();
  });
});
