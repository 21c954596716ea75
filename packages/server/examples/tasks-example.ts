import { Client } from '@statemcp/client';
import { InMemoryTransport, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { McpServer, MemoryTaskStore } from '@statemcp/server';
import { z } from 'zod';

export async function main(): Promise<string[]> {
  const lines: string[] = [];
  const server = new McpServer({ name: 'reports', version: '1.0.0' }, { taskExtension: { store: new MemoryTaskStore({ maxTasks: 1_000 }), pollIntervalMs: 10 } });
  // The same handler runs inline, or as a task when the client declares the tasks extension.
  server.registerTool('publish', { inputSchema: { topic: z.string() }, execution: { taskSupport: 'optional' } }, async ({ topic }, extra) => {
    const answer = await extra.elicit({ message: `Publish ${topic}?`, requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: `${topic}: ${answer.action}` }] };
  });
  // Every status change of a task (what notifications/tasks carries on a listen stream).
  const statuses: string[] = [];
  server.setTaskNotifier({ taskChanged: (task) => statuses.push(task.status) });

  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID), onElicitation: async () => ({ action: 'accept', content: {} }) },
  );
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  // callTool polls the task, answers its elicitation with onElicitation, and returns the result.
  const result = await client.callTool({ name: 'publish', arguments: { topic: 'q3' } }, { onTask: (task) => lines.push(`running as a task: ${task.taskId.length} char id`) });
  lines.push(JSON.stringify(result.content), `statuses: ${statuses.join(' → ')}`);
  await client.close();
  return lines;
}
