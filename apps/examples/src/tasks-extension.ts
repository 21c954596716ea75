/**
 * The tasks extension of the 2026-07-28 revision (`io.modelcontextprotocol/tasks`) over
 * Streamable HTTP: a tool that may run as a task, two server instances sharing one task store,
 * and a client that walks away from a task and a second client that picks it up by its id.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { McpServer, MemoryTaskStore, type DurableTaskStore } from '@statemcp/server';
import { z } from 'zod';

/** One instance of the service: `report` runs as a task when the client declares the extension. */
function createReportServer(store: DurableTaskStore, finish: Promise<void>): McpServer {
  const server = new McpServer({ name: 'reports', version: '1.0.0' }, { taskExtension: { store, pollIntervalMs: 10 } });
  server.registerTool('report', { inputSchema: { quarter: z.string() }, execution: { taskSupport: 'optional' } }, async ({ quarter }) => {
    await finish; // the long part of the job
    return { content: [{ type: 'text', text: `report for ${quarter} is ready` }] };
  });
  return server;
}

/** A client of the modern era that declares the tasks extension in its capabilities. */
async function connectClient(url: URL): Promise<Client> {
  const client = new Client({ name: 'desk', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

/** Starts two instances on loopback ports, starts a task on one and collects it from the other. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  // A store both instances share; a store over Redis or a database plays this part in production.
  const store = new MemoryTaskStore({ maxTasks: 1_000 });
  let finishJob = (): void => undefined;
  const finish = new Promise<void>((resolve) => (finishJob = resolve));
  const instances = [createReportServer(store, finish), createReportServer(store, finish)];
  const listening = await Promise.all(
    instances.map((server) => createStreamableHttpServer({ connect: (transport) => server.connect(transport) }).listen({ port: 0 })),
  );
  const [first, second] = listening.map((http) => http.url);
  if (first === undefined || second === undefined) throw new Error('two instances expected');

  // The first client starts the job, keeps the task's id and stops waiting (the task runs on).
  const impatient = await connectClient(first);
  const stopWaiting = new AbortController();
  let started: ToolTask | undefined;
  await impatient
    .callTool({ name: 'report', arguments: { quarter: 'Q3' } }, { signal: stopWaiting.signal, onTask: (task) => {
      started = task;
      stopWaiting.abort('the user closed the window');
    } })
    .catch(() => log(`stopped waiting for task ${started?.last?.status ?? '?'}`));
  await impatient.close();
  if (started === undefined) throw new Error('the call did not run as a task');

  // Another client, through the other instance, rebuilds the handle from the id alone.
  const later = await connectClient(second);
  const task = later.task(started.taskId);
  log(`status seen by the second instance: ${(await task.get()).status}`);
  finishJob();
  const result = await task.result(); // polls tasks/get until the task is terminal
  log(`result: ${JSON.stringify(result.content[0])}`);
  log(`final status: ${task.last?.status ?? '?'}`);
  await later.close();

  await Promise.all(listening.map((http) => http.close()));
  await Promise.all(instances.map((server) => server.close()));
}
