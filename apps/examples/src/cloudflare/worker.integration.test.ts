/**
 * The Cloudflare example (`worker.ts`) under workerd (miniflare, Durable Objects on, no
 * `nodejs_compat`): a legacy-era session and its notes survive the eviction of its object (a
 * runtime restart on the same storage); a 2026-07-28 client runs a task in the shard object.
 */
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { bundleWorker, WorkerRuntime } from '@statemcp/testing/workerd';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let runtime: WorkerRuntime;
let url: URL;

beforeAll(async () => {
  const script = await bundleWorker(fileURLToPath(new URL('./worker.ts', import.meta.url)));
  runtime = await WorkerRuntime.start(script, { durableObjects: { NOTES: 'NotesObject' } });
  url = new URL('/mcp', runtime.origin);
});
afterAll(async () => {
  await runtime.close();
});

const textOf = (result: { content: unknown }): string | undefined => (result.content as { text?: string }[])[0]?.text;

describe('the Cloudflare Durable Objects example', () => {
  it('keeps a session and its notes across the eviction of its object', async () => {
    const client = new Client({ name: 'notes-client', version: '1.0.0' }, { era: 'legacy' });
    const transport = new StreamableHttpClientTransport(url);
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'add_note', arguments: { text: 'milk' } }))).toBe('1 note(s)');
    expect(textOf(await client.callTool({ name: 'add_note', arguments: { text: 'eggs' } }))).toBe('2 note(s)');
    const sessionId = transport.sessionId;

    await runtime.restart();
    // The session is rebuilt from its stored record, the notes read from the object's storage.
    expect(textOf(await client.callTool({ name: 'add_note', arguments: { text: 'tea' } }))).toBe('3 note(s)');
    expect(transport.sessionId).toBe(sessionId);
    await client.close();
  });

  it('runs a 2026-07-28 task in the shard object', async () => {
    const client = new Client({ name: 'notes-client', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
    await client.connect(new StreamableHttpClientTransport(url));
    let taskId: string | undefined;
    await client.callTool({ name: 'add_note', arguments: { text: 'bread' } });
    const summary = await client.callTool({ name: 'summarize' }, { onTask: (task) => (taskId = task.taskId) });
    expect(textOf(summary)).toBe('notes: bread');
    expect(taskId).toBeDefined();
    await client.close();
  });
});
