/**
 * Interop in the 2026-07-28 era over stdio with a real child process: our `Client` against the
 * official TypeScript SDK v2 server (`serveStdio`). It discovers (no handshake), calls a tool,
 * and its `client.listen` stream is acknowledged and receives the server's change
 * notifications tagged with its subscription id.
 */
import { fileURLToPath } from 'node:url';
import { Client, type ListenHandle, type ListenNotification } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '../src/index.js';
import { fixture, node } from './support/paths.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.terminate()));
});

function take(stream: ListenHandle, count: number): Promise<ListenNotification[]> {
  const seen: ListenNotification[] = [];
  return new Promise((resolve) => {
    const remove = stream.onNotification((notification) => {
      seen.push(notification);
      if (seen.length < count) return;
      remove();
      resolve(seen);
    });
  });
}

describe('Client against the official v2 server over stdio (2026-07-28)', () => {
  it('discovers, calls, and listens', async () => {
    const client = new Client({ name: 'statemcp-stdio-interop', version: '0.0.0' }, { era: 'auto' });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: node, args: [fixture('official-v2-server.mjs')], cwd: packageRoot }));
    expect(client.era).toBe('modern');
    expect(client.serverInfo?.name).toBe('official-v2-stdio');

    const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['test://notes'] });
    expect(stream.acknowledged).toMatchObject({ toolsListChanged: true, resourceSubscriptions: ['test://notes'] });
    const arriving = take(stream, 2);
    expect((await client.callTool({ name: 'change', arguments: {} })).content).toEqual([{ type: 'text', text: 'changed' }]);
    const seen = await arriving;
    expect(seen.map((notification) => notification.method).sort()).toEqual(['notifications/resources/updated', 'notifications/tools/list_changed']);
    for (const notification of seen) expect(notification.params._meta).toMatchObject({ 'io.modelcontextprotocol/subscriptionId': stream.id });
    await stream.close();
    expect(await stream.ended).toEqual({ reason: 'closed' });
    await client.close();
  });
});
