/**
 * The Worker the Durable Object integration tests bundle and run under workerd (miniflare): the
 * front of `@statemcp/http-transport/cloudflare` and an object class serving an `McpServer` with
 * its tasks in the object's storage.
 *
 *   add                 sums two numbers
 *   wait_for_release    logs "waiting", waits until `release` is called in the same object, logs
 *                       "released" and answers "done" (a stream the client leaves and resumes)
 *   release             lets `wait_for_release` go on
 *   add_tool            registers one more tool (a change listen streams hear); with `later`,
 *                       50 ms after answering (the change goes out on the standalone GET stream)
 *   report              runs only as a task (tasks extension) and answers "report ready"
 */
import type { StoredTask } from '@statemcp/server';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';
import { createDurableObjectServer, createWorkerFront, durableObjectStores, type DurableObjectMcpServer, type DurableObjectNamespaceLike, type DurableObjectStateLike, type DurableObjectStores } from './index.js';

interface Env {
  readonly MCP_OBJECT: DurableObjectNamespaceLike;
}

function createServer(stores: DurableObjectStores<StoredTask>): McpServer {
  const server = new McpServer({ name: 'durable-object-test', version: '1.0.0' }, { taskExtension: { store: stores.tasks } });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let added = 0;
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  server.registerTool('wait_for_release', {}, async (_args, extra) => {
    await extra.log('info', 'waiting', 'test-worker');
    await released;
    await extra.log('info', 'released', 'test-worker');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('release', {}, () => {
    release();
    return { content: [{ type: 'text', text: 'released' }] };
  });
  server.registerTool('add_tool', { inputSchema: { later: z.boolean().optional() } }, ({ later }) => {
    added++;
    const name = `added_${added}`;
    const add = (): void => void server.registerTool(name, {}, () => ({ content: [] }));
    // `later`: after the call has been answered, so the change travels on the standalone GET stream.
    if (later === true) setTimeout(add, 50);
    else add();
    return { content: [{ type: 'text', text: name }] };
  });
  server.registerTool('report', { execution: { taskSupport: 'required' } }, () => ({ content: [{ type: 'text', text: 'report ready' }] }));
  return server;
}

/** The Durable Object class (binding `MCP_OBJECT`). */
export class McpObject {
  readonly #mcp: DurableObjectMcpServer;

  constructor(state: DurableObjectStateLike) {
    const stores = durableObjectStores<StoredTask>(state.storage);
    const server = createServer(stores);
    this.#mcp = createDurableObjectServer(state, { stores, path: '/mcp', retryIntervalMs: 100, connect: (transport) => server.connect(transport) });
  }

  fetch(request: Request): Promise<Response> {
    return this.#mcp.fetch(request);
  }

  alarm(): Promise<void> {
    return this.#mcp.alarm();
  }
}

export default createWorkerFront<Env>({ namespace: (env) => env.MCP_OBJECT });
