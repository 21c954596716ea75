// Issue 18, item 5: 320 sessions from one client process with the default fetch, each
// holding its standalone GET stream open. A shared socket pool capped at 256 per host must
// not make the 257th `initialize` wait silently for its timeout: all sessions initialize,
// open their stream, and still serve requests, within a bounded time.
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { within } from '../src/child-process.js';
import { HttpFixture } from '../src/http-fixture.js';

const SESSIONS = 320;
const WAVE = 8;
/** Per session: initialize plus the GET stream opening. A healthy session needs milliseconds. */
const SESSION_BOUND_MS = 10_000;
const TOTAL_BOUND_MS = 60_000;

interface Connected {
  readonly client: Client;
  readonly transport: StreamableHttpClientTransport;
}

async function connectOne(url: string): Promise<Connected> {
  let streamOpen!: () => void;
  const opened = new Promise<void>((resolve) => {
    streamOpen = resolve;
  });
  const transport = new StreamableHttpClientTransport(new URL(url), {
    onStreamStateChange: (change) => {
      if (change.stream === 'standalone' && change.state.kind === 'open') streamOpen();
    },
  });
  // The handshake era: the fault is one GET stream held per session (2026-07-28 has neither).
  const client = new Client({ name: 'fault-suite-sessions', version: '1.0.0' }, { era: 'legacy' });
  await within(
    (async () => {
      await client.connect(transport, { timeoutMs: SESSION_BOUND_MS });
      await opened;
    })(),
    SESSION_BOUND_MS,
    'initialize and the standalone GET stream',
  ).catch(async (error: unknown) => {
    await client.close().catch(() => undefined);
    throw error;
  });
  return { client, transport };
}

describe(`${String(SESSIONS)} sessions from one client process (default fetch)`, () => {
  let fixture: HttpFixture;
  const connected: Connected[] = [];
  let failure: string | undefined;
  let elapsedMs = 0;

  beforeAll(async () => {
    fixture = await HttpFixture.start();
    const started = performance.now();
    while (connected.length < SESSIONS && failure === undefined && performance.now() - started < TOTAL_BOUND_MS) {
      const wave = Math.min(WAVE, SESSIONS - connected.length);
      const results = await Promise.allSettled(Array.from({ length: wave }, () => connectOne(fixture.url)));
      for (const result of results) {
        if (result.status === 'fulfilled') connected.push(result.value);
        else failure ??= `session ${String(connected.length + 1)}: ${String(result.reason)}`;
      }
    }
    elapsedMs = performance.now() - started;
  }, TOTAL_BOUND_MS + 30_000);

  afterAll(async () => {
    await Promise.all(connected.map(({ client }) => client.close().catch(() => undefined)));
    await fixture.close();
  }, 60_000);

  it('initializes every session and opens its GET stream, within the bound', () => {
    expect(failure).toBeUndefined();
    expect(connected).toHaveLength(SESSIONS);
    expect(elapsedMs).toBeLessThan(TOTAL_BOUND_MS);
  });

  it('still serves requests on the first and the last session while every stream is held', async () => {
    expect(connected.length).toBeGreaterThan(0);
    for (const { client } of [connected[0], connected.at(-1)].filter((session) => session !== undefined)) {
      const { tools } = await client.listTools({}, { timeoutMs: SESSION_BOUND_MS });
      expect(tools.map((tool) => tool.name)).toContain('echo');
    }
  });
});
