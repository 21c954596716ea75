/**
 * A stateful MCP server on Cloudflare Workers and Durable Objects
 * (`@statemcp/http-transport/cloudflare`). The default export is the stateless front: it routes
 * each request by its `Mcp-Session-Id` to the object of that session, a new session to a new
 * object, and the 2026-07-28 stateless requests to a shard object. `NotesObject` runs the server
 * in each object; its session records, SSE events and tasks live in the object's storage, so a
 * session survives the object's eviction and a stream resumes with `Last-Event-ID`.
 *
 * wrangler.jsonc of a deployment:
 *
 *   "main": "src/worker.ts",
 *   "durable_objects": { "bindings": [{ "name": "NOTES", "class_name": "NotesObject" }] },
 *   "migrations": [{ "tag": "v1", "new_sqlite_classes": ["NotesObject"] }]
 */
import {
  createDurableObjectServer,
  createWorkerFront,
  durableObjectStores,
  type DurableObjectMcpServer,
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
} from '@statemcp/http-transport/cloudflare';
import { McpServer, type StoredTask } from '@statemcp/server';
import { z } from 'zod';

interface Env {
  /** The Durable Object namespace of `NotesObject`. */
  readonly NOTES: DurableObjectNamespaceLike;
  /** The Worker's public host name (a `vars` entry), for the Host check; loopback names are allowed without it. */
  readonly PUBLIC_HOST?: string;
}

/**
 * The Durable Object class: one `McpServer` per object, its tasks in the object's storage. Each
 * session's notes are kept in its object's storage too (the key `notes`; the stores use `session:`,
 * `stream:`, `event:` and `task:`), so they outlive the object's memory.
 */
export class NotesObject {
  readonly #mcp: DurableObjectMcpServer;

  constructor(state: DurableObjectStateLike, env: Env) {
    const stores = durableObjectStores<StoredTask>(state.storage);
    const server = new McpServer({ name: 'notes', version: '1.0.0' }, { taskExtension: { store: stores.tasks } });
    const notes = async (): Promise<string[]> => (await state.storage.get<string[]>('notes')) ?? [];
    server.registerTool('add_note', { inputSchema: { text: z.string() } }, async ({ text }) => {
      const all = [...(await notes()), text];
      await state.storage.put('notes', all);
      return { content: [{ type: 'text', text: `${all.length} note(s)` }] };
    });
    server.registerTool('summarize', { execution: { taskSupport: 'optional' } }, async () => ({ content: [{ type: 'text', text: `notes: ${(await notes()).join(', ')}` }] }));
    this.#mcp = createDurableObjectServer(state, {
      stores,
      path: '/mcp',
      ...(env.PUBLIC_HOST === undefined ? {} : { allowedHosts: [env.PUBLIC_HOST] }),
      connect: (transport) => server.connect(transport),
    });
  }

  fetch(request: Request): Promise<Response> {
    return this.#mcp.fetch(request);
  }

  alarm(): Promise<void> {
    return this.#mcp.alarm();
  }
}

export default createWorkerFront<Env>({ namespace: (env) => env.NOTES });
