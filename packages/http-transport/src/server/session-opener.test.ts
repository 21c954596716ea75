import { SimulatedClock, type TransportSink } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import type { ClusterMembership } from './cluster-relay.js';
import type { AnySessionTransport, HttpSession } from './http-session.js';
import { SessionManager } from './session-manager.js';
import type { SessionOpening } from './server-options.js';
import { createSessionOpener, type SessionOpenerParts } from './session-opener.js';
import { HttpServerSessionTransport } from './session-transport.js';

const sink: TransportSink = { onMessage: () => undefined, onClose: () => undefined };

/** Who opens a session: only its principal matters to the opener. */
const as = (principal: string | undefined): SessionOpening => ({ authInfo: undefined, principal, http: undefined });

function setup({ connectFails = false, ...overrides }: Partial<SessionOpenerParts> & { connectFails?: boolean } = {}) {
  const manager = new SessionManager<HttpSession>({ maxSessions: 2, maxSessionsPerPrincipal: 1, clock: new SimulatedClock(), sweepIntervalMs: 0 });
  const created: string[] = [];
  const settings = { eventStore: undefined, retryIntervalMs: undefined, keepAliveIntervalMs: 0, maxQueuedMessages: 10, maxStreamBufferBytes: 1024, stalledStreamTimeoutMs: 1000, clock: new SimulatedClock() };
  const open = createSessionOpener({
    manager,
    isClosed: () => false,
    connect: async (transport: AnySessionTransport) => {
      if (connectFails) {
        await transport.terminate('error');
        return false;
      }
      await transport.start(sink);
      return true;
    },
    cluster: () => undefined,
    onSessionCreated: (id) => created.push(id),
    ...overrides,
  });
  const transport = (sessionId: string) => new HttpServerSessionTransport({ sessionId, settings });
  return { manager, created, open, transport };
}

describe('createSessionOpener', () => {
  it('registers a session that passed its first exchange and reports it created', async () => {
    const { manager, created, open, transport } = setup();
    const opened = await open({ opening: as('alice'), transport, first: async () => ({ answer: new Response('ok'), live: true }) });
    expect(opened.refused).toBeUndefined();
    if (opened.refused !== undefined) return;
    expect(manager.peek(opened.sessionId)?.transport).toBe(opened.transport);
    expect(created).toEqual([opened.sessionId]);
    expect(await opened.answer?.text()).toBe('ok');
  });

  it('ends a session whose first exchange failed, answers with that exchange and gives its place back', async () => {
    const { manager, created, open, transport } = setup();
    const opened = await open({ opening: as('alice'), transport, first: async () => ({ answer: new Response('bad version', { status: 400 }), live: false }) });
    expect(opened.refused?.status).toBe(400);
    expect(manager.size).toBe(0);
    expect(created).toEqual([]);
    // The reservation was released: the one place of this principal opens again.
    expect((await open({ opening: as('alice'), transport })).refused).toBeUndefined();
  });

  it('answers 500 when the user connect fails, and gives the place back', async () => {
    const failing = setup({ connectFails: true });
    const opened = await failing.open({ opening: as('alice'), transport: failing.transport });
    expect(opened.refused?.status).toBe(500);
    expect(failing.manager.admit('alice')).toBe('reserved');
  });

  it('refuses with 429 over the principal cap and 503 when the server is full', async () => {
    const { open, transport } = setup();
    expect((await open({ opening: as('alice'), transport })).refused).toBeUndefined();
    expect((await open({ opening: as('alice'), transport })).refused?.status).toBe(429);
    expect((await open({ opening: as('bob'), transport })).refused).toBeUndefined();
    expect((await open({ opening: as('carol'), transport })).refused?.status).toBe(503);
  });

  it('adopts a session under its own id once, and never an id this instance already runs', async () => {
    const { manager, open, transport } = setup();
    const adopted = await open({ opening: as(undefined), adoptedId: 'from-dead-instance', transport });
    expect(adopted.refused).toBeUndefined();
    expect(manager.peek('from-dead-instance')).toBeDefined();
    expect((await open({ opening: as(undefined), adoptedId: 'from-dead-instance', transport })).refused?.status).toBe(503);
  });

  it('shares a registered session with the cluster, and answers the store refusal when it cannot', async () => {
    const registered: unknown[] = [];
    const cluster = {
      register: async (sessionId: string, protocolVersion: string | undefined) => {
        registered.push([sessionId, protocolVersion]);
        return new Response(null, { status: 503 });
      },
    } as unknown as ClusterMembership;
    const { open, transport, created } = setup({ cluster: () => cluster });
    const opened = await open({ opening: as(undefined), transport, share: () => ({ protocolVersion: '2025-11-25', initialize: undefined }) });
    expect(opened.refused?.status).toBe(503);
    expect(registered).toEqual([[expect.any(String), '2025-11-25']]);
    expect(created).toEqual([]);
  });
});
