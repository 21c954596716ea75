/**
 * `connect()`'s `timeoutMs` bounds the whole connect with the default era `auto`: discovery
 * and the fallback handshake share it. A server process that never answers, or that answers
 * every line with something that is not JSON-RPC, makes `connect()` reject with a
 * `RequestTimeoutError` once `timeoutMs` has passed — not after discovery's wait plus a fresh
 * handshake timeout.
 */
import { Client } from '@statemcp/client';
import { RequestTimeoutError } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '../src/index.js';
import { node } from './support/paths.js';

const SILENT = 'process.stdin.resume()';
const GARBAGE = "process.stdin.on('data', () => process.stdout.write('<html>not json-rpc</html>\\n'))";
/**
 * Short, since the tests wait it out, yet above `SLACK_MS`: a connect that gave the fallback
 * handshake a fresh `timeoutMs` after discovery's (2 × `TIMEOUT_MS`) still fails the upper bound.
 */
const TIMEOUT_MS = 1_200;
/** Room for a loaded machine on the upper bound. */
const SLACK_MS = 1_000;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.terminate()));
});

async function connectFailure(script: string): Promise<{ error: unknown; elapsed: number }> {
  const client = new Client({ name: 'deadline', version: '0.0.0' });
  clients.push(client);
  const transport = new StdioClientTransport({ command: node, args: ['-e', script], stderr: 'pipe' });
  const started = performance.now();
  const error = await client.connect(transport, { timeoutMs: TIMEOUT_MS }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { error, elapsed: performance.now() - started };
}

describe('connect() over stdio with era auto', () => {
  it.each([
    ['a silent server', SILENT],
    ['a server that answers garbage', GARBAGE],
  ])('rejects with a RequestTimeoutError within its timeoutMs against %s', async (_name, script) => {
    const { error, elapsed } = await connectFailure(script);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // The whole connect: discovery's wait and the fallback handshake together, with room for a loaded machine.
    expect(elapsed).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  });
});
