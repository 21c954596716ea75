/**
 * A session for the inspector tests: a server with a quick tool and a slow one, a client that
 * lists and calls them, cancels one call, lets another time out, and closes. Every transition
 * reaches the inspector through the diagnostics channels.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** A server whose `slow` tool reports progress and then waits until it is cancelled. */
export function demoServer(): McpServer {
  const server = new McpServer({ name: 'inspector-demo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('slow', { description: 'Waits until cancelled' }, async (_args, extra) => {
    await extra.sendProgress(1, 10, 'started');
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) resolve();
      extra.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  return server;
}

/** Runs the whole walk: connect, calls, one cancelled, one expired, close. */
export async function runDemoSession(): Promise<{ cancelled: unknown; expired: unknown }> {
  const server = demoServer();
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'inspector-demo-client', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { text: 'hello' } });

  const controller = new AbortController();
  let progressed!: () => void;
  const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
  const cancelledCall = client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal, onProgress: () => progressed() }).catch((error: unknown) => error);
  await firstProgress;
  controller.abort('the user changed their mind');
  const cancelled = await cancelledCall;

  const expired = await client.callTool({ name: 'slow', arguments: {} }, { timeoutMs: 150 }).catch((error: unknown) => error);
  await client.close();
  await server.close();
  return { cancelled, expired };
}
