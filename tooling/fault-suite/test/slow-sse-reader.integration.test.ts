// Issue 18, item 4: a standalone GET stream the client never reads while the server sends
// 20 000 × 10 KB notifications. The server's memory growth must stay bounded and the sender
// must feel backpressure (a send that waits) instead of queueing 200 MB.
//
// Bound: heap used + external of the server process, after a full GC, may grow by at most
// 64 MiB over its idle baseline — a third of what 20 000 × 10 KB would take if queued.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFixture } from '../src/http-fixture.js';
import { PROTOCOL_VERSION } from '../src/handshake-messages.js';
import { HttpWire } from '../src/http-wire.js';

const COUNT = 20_000;
const BYTES = 10 * 1024;
const MEMORY_BOUND = 64 * 1024 * 1024;

interface BroadcastLine {
  readonly kind: string;
  readonly sent: number;
  readonly mem: number;
}

function parseBroadcast(line: string): BroadcastLine {
  const [, kind = '', ...fields] = line.split(' ');
  const value = (name: string): number => Number(fields.find((field) => field.startsWith(`${name}=`))?.slice(name.length + 1) ?? NaN);
  return { kind, sent: value('sent'), mem: value('mem') };
}

function openStandaloneStream(wire: HttpWire): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request(wire.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': wire.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
    });
    req.once('response', (res) => resolve({ req, res }));
    req.once('error', reject);
    req.end();
  });
}

describe('Streamable HTTP server with a GET stream nobody reads', () => {
  let fixture: HttpFixture;
  let baseline = 0;
  let first: BroadcastLine | undefined;
  let finished: BroadcastLine | undefined;
  let streamStatus = 0;

  beforeAll(async () => {
    fixture = await HttpFixture.start();
    const wire = new HttpWire(fixture.url);
    await wire.initialize();
    const { req, res } = await openStandaloneStream(wire);
    streamStatus = res.statusCode ?? 0;
    res.pause(); // never read: the socket's buffers fill, then TCP pushes back on the server
    baseline = await fixture.memory();

    const started = fixture.stdout.lines.length;
    const call = await wire.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'broadcast', arguments: { count: COUNT, bytes: BYTES } } }));
    if (call.status !== 200) throw new Error(`broadcast answered ${String(call.status)}`);
    // Either the sender stalls (backpressure) or it finishes all 20 000 sends unread.
    first = parseBroadcast(await fixture.stdout.waitFor((line) => line.startsWith('BROADCAST '), 60_000, 'the broadcast to stall or finish', started));
    // Now read the stream: a sender that waited must be able to finish.
    res.on('data', () => undefined);
    res.resume();
    finished = parseBroadcast(await fixture.stdout.waitFor((line) => line.startsWith('BROADCAST done') || line.startsWith('BROADCAST failed'), 60_000, 'the broadcast to finish', started));
    req.destroy();
  }, 150_000);

  afterAll(async () => {
    await fixture.close();
  });

  it('opened the standalone stream', () => {
    expect(streamStatus).toBe(200);
  });

  it('makes the sender wait while the reader reads nothing', () => {
    expect(first?.kind, `all ${String(first?.sent)} sends of ${String(BYTES)} bytes resolved without a reader`).toBe('stalled');
    expect(first?.sent ?? COUNT).toBeLessThan(COUNT);
  });

  it(`keeps the server's memory growth under ${String(MEMORY_BOUND / 1024 / 1024)} MiB`, () => {
    const growth = (first?.mem ?? Infinity) - baseline;
    expect(growth, `grew by ${(growth / 1024 / 1024).toFixed(1)} MiB with ${String(first?.sent)} messages sent`).toBeLessThan(MEMORY_BOUND);
  });

  it('lets the sender finish once the stream is read (or was closed past its deadline)', () => {
    expect(finished).toMatchObject({ kind: 'done', sent: COUNT });
    expect(fixture.exit).toBeUndefined();
  });
});
