/**
 * A session for the inspector tests: a server with a quick tool and a slow one, a client that
 * lists and calls them, cancels one call, lets another time out, and closes. Every transition
 * reaches the inspector through the diagnostics channels.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
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
  // The legacy era: the walk under test is the handshake's, Uninitialized → Initializing → Initialized → Operating → ….
  const client = new Client({ name: 'inspector-demo-client', version: '1.0.0' }, { era: 'legacy' });
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

/** What the tasks session saw: the final status of each task and the MRTR call's answer. */
export interface TaskSessionOutcome {
  readonly approved: string;
  readonly cancelled: unknown;
  readonly greeted: string;
}

/**
 * A 2026-07-28 session with the tasks extension: `approve` runs as a task that asks for input
 * (working → input_required → working → completed), `wait` runs as a task the client cancels,
 * and `greet` answers inline after one Multi Round-Trip round.
 */
export async function runTaskSession(): Promise<TaskSessionOutcome> {
  const server = new McpServer({ name: 'inspector-tasks', version: '1.0.0' }, { taskExtension: { pollIntervalMs: 20 } });
  const schema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
  server.registerTool('approve', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Ship it?', requestedSchema: schema });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  server.registerTool('wait', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) resolve();
      extra.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  server.registerTool('greet', {}, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'user_name' });
    return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.['name'])}!` }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'inspector-tasks-client', version: '1.0.0' },
    {
      era: 'modern',
      capabilities: withExtension({ elicitation: {} }, TASKS_EXTENSION_ID),
      onElicitation: async (params) => ({ action: 'accept', content: params.message === 'Name?' ? { name: 'Ada' } : { ok: true } }),
    },
  );
  await client.connect(clientSide);
  const approved = await client.callTool({ name: 'approve', arguments: {} });
  const cancelled = await client.callTool({ name: 'wait', arguments: {} }, { onTask: (task) => void task.cancel() }).catch((error: unknown) => error);
  const greeted = await client.callTool({ name: 'greet', arguments: {} });
  await client.close();
  await server.close();
  const text = (result: typeof approved): string => (result.content[0]?.type === 'text' ? result.content[0].text : '');
  return { approved: text(approved), cancelled, greeted: text(greeted) };
}
