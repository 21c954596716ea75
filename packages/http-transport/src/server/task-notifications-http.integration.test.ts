/**
 * The tasks extension's `notifications/tasks` over stateless Streamable HTTP on real 127.0.0.1
 * sockets: a listen stream naming the task carries its changes on the listen POST's SSE
 * response, and the client's task handle is driven by them — its clock never moves, so it
 * cannot have polled its way to the result.
 */
import { Client, type ListenHandle } from '@statemcp/client';
import { SimulatedClock, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import { Servers } from '../../test/mcp-fixture.js';
import { StreamableHttpClientTransport } from '../client/streamable-http.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

describe('notifications/tasks over Streamable HTTP (2026-07-28)', () => {
  it('drives a task handle from the listen stream that names the task', async () => {
    const { mcp, url } = await servers.start();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    mcp.registerTool('long_report', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
      await gate;
      const answer = await extra.elicit({ message: 'Publish?', requestedSchema: { type: 'object', properties: {} } });
      return { content: [{ type: 'text', text: `report: ${answer.action}` }] };
    });
    const client = new Client(
      { name: 'task-listener', version: '1.0.0' },
      { era: 'modern', clock: new SimulatedClock(), capabilities: withExtension({}, TASKS_EXTENSION_ID), onElicitation: async () => ({ action: 'accept', content: {} }) },
    );
    await client.connect(new StreamableHttpClientTransport(url));
    let opened!: (stream: Promise<ListenHandle>) => void;
    const streamOpened = new Promise<ListenHandle>((resolve) => (opened = resolve));
    const call = client.callTool({ name: 'long_report' }, { onTask: (task) => opened(client.listen({ taskIds: [task.taskId] })) });
    const stream = await streamOpened;
    const pushed: string[] = [];
    stream.onNotification((notification) => pushed.push(String(notification.params.status)));
    expect(Object.keys(stream.acknowledged)).toEqual(['taskIds']);
    release();
    expect((await call).content).toEqual([{ type: 'text', text: 'report: accept' }]);
    expect(pushed).toEqual(['input_required', 'working', 'completed']);
    await stream.close();
    await client.close();
  });
});
