/**
 * Two (or more) instances of one MCP server in this process, as a load-balanced cluster would run
 * them: each an `McpServer` behind its own `createStreamableHttpServer` on 127.0.0.1, sharing the
 * session store, the bus, the subscription store, the event store and the tasks extension's store.
 * Each instance has a resource (`file:///notes.md`), a tool that reports a change of it
 * (`touch`), a task tool that runs until cancelled (`wait_for_cancel`) and one that asks for
 * input (`ask_name`); every `tasks` change reaches `taskChanges`.
 */
import type { DetailedTask, MessageBus, SubscriptionStore } from '@statemcp/protocol';
import { McpServer, MemoryTaskStore, type DurableTaskStore } from '@statemcp/server';

import { InMemoryEventStore, type EventStore } from '../src/server/event-store.js';
import { InMemoryMessageBus, InMemorySessionStore, InMemorySubscriptionStore } from '../src/server/memory-shared-state.js';
import type { SessionStore } from '../src/server/shared-state.js';
import { createStreamableHttpServer, type ListeningServer, type StreamableHttpServer } from '../src/server/index.js';

export const NOTES_URI = 'file:///notes.md';

/** What the instances share. */
export interface SharedStores {
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  readonly subscriptions: SubscriptionStore;
  readonly events: EventStore;
  readonly tasks: DurableTaskStore;
}

/** The in-memory shared stores (a bus that also records what was published where). */
export function memoryStores(): SharedStores & { readonly published: string[] } {
  const published: string[] = [];
  const bus = new InMemoryMessageBus();
  const publish = bus.publish.bind(bus);
  bus.publish = (channel, payload) => {
    published.push(channel);
    return publish(channel, payload);
  };
  return { sessions: new InMemorySessionStore(), bus, subscriptions: new InMemorySubscriptionStore(), events: new InMemoryEventStore(), tasks: new MemoryTaskStore(), published };
}

/** One running instance. */
export interface ClusterInstance {
  readonly id: string;
  readonly mcp: McpServer;
  readonly http: StreamableHttpServer;
  readonly listening: ListeningServer;
  /** The Streamable HTTP endpoint (`/mcp`). */
  readonly url: URL;
  /** The legacy HTTP+SSE endpoint (`/sse`). */
  readonly sseUrl: URL;
  /** Handlers of `wait_for_cancel` whose abort signal fired, by task id. */
  readonly aborted: string[];
  /** Every task change this instance published, as `taskId:status`. */
  readonly taskChanges: string[];
}

/** Starts instance `id` over `stores`. */
export async function startInstance(id: string, stores: SharedStores): Promise<ClusterInstance> {
  const mcp = new McpServer(
    { name: `cluster-${id}`, version: '1.0.0' },
    {
      cluster: { instanceId: id, bus: stores.bus, subscriptions: stores.subscriptions },
      taskExtension: { store: stores.tasks, pollIntervalMs: 20 },
    },
  );
  const aborted: string[] = [];
  const taskChanges: string[] = [];
  mcp.setTaskNotifier({ taskChanged: (task: DetailedTask) => taskChanges.push(`${task.taskId}:${task.status}`) });
  mcp.registerResource('notes', NOTES_URI, { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: `# notes (read on ${id})` }] }));
  mcp.registerTool('touch', { description: 'Reports a change of the notes' }, async () => {
    await mcp.notifyResourceUpdated(NOTES_URI);
    return { content: [{ type: 'text', text: `touched on ${id}` }] };
  });
  mcp.registerTool('wait_for_cancel', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted.push(extra.task?.taskId ?? '?');
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  mcp.registerTool('ask_name', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])} from ${id}` }] };
  });
  const http = createStreamableHttpServer({
    connect: (transport) => mcp.connect(transport),
    eventStore: stores.events,
    legacySse: true,
    cluster: { instanceId: id, sessions: stores.sessions, bus: stores.bus },
  });
  const listening = await http.listen();
  return { id, mcp, http, listening, url: listening.url, sseUrl: new URL('/sse', listening.url), aborted, taskChanges };
}

/** Resolves once `check` passes (polled every 5 ms; the test's own timeout bounds it). */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}
