/**
 * The everything server as a Cloudflare Worker with Durable Objects
 * (`@statemcp/http-transport/cloudflare`): the default export is the stateless front, which
 * routes each request by its `Mcp-Session-Id`; `EverythingObject` runs the fixtures, one object
 * per legacy-era session and a shard object for the 2026-07-28 stateless requests, with session
 * records, SSE events and tasks in the object's storage. `tooling/conformance/run.mjs
 * --server-door durable-object` bundles it and runs it under miniflare (workerd, no
 * `nodejs_compat`). Bindings: `MCP_OBJECT` (this class), and optionally
 * `STATEMCP_REQUEST_STATE_KEY`, the Multi Round-Trip `requestState` key every object shares.
 */
import type { RequestId } from '@statemcp/protocol';
import type { StreamableHttpSessionTransport } from '@statemcp/http-transport/server';
import {
  createDurableObjectServer,
  createWorkerFront,
  durableObjectStores,
  type DurableObjectMcpServer,
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
} from '@statemcp/http-transport/cloudflare';
import type { ServerConnection, StoredTask } from '@statemcp/server';
import { createEverythingServer } from './fixtures.js';

/** The Worker's bindings. */
export interface EverythingEnv {
  readonly MCP_OBJECT: DurableObjectNamespaceLike;
  readonly STATEMCP_REQUEST_STATE_KEY?: string;
}

/** The Durable Object class: the everything server in one object. */
export class EverythingObject {
  readonly #mcp: DurableObjectMcpServer;

  constructor(state: DurableObjectStateLike, env: EverythingEnv) {
    const stores = durableObjectStores<StoredTask>(state.storage);
    const transports = new WeakMap<ServerConnection, StreamableHttpSessionTransport>();
    const stateKey = env.STATEMCP_REQUEST_STATE_KEY;
    const server = createEverythingServer({
      closeRequestStream: (connection: ServerConnection, requestId: RequestId) => transports.get(connection)?.closeRequestStream(requestId) ?? false,
      taskStore: stores.tasks,
      ...(stateKey === undefined ? {} : { requestState: { key: stateKey } }),
    });
    this.#mcp = createDurableObjectServer(state, {
      stores,
      path: '/mcp',
      retryIntervalMs: 500,
      connect: async (transport) => {
        const connection = await server.connect(transport);
        transports.set(connection, transport);
      },
      onError: (error) => console.error(`everything-server (durable object): ${String(error)}`),
    });
  }

  fetch(request: Request): Promise<Response> {
    return this.#mcp.fetch(request);
  }

  alarm(): Promise<void> {
    return this.#mcp.alarm();
  }
}

export default createWorkerFront<EverythingEnv>({ namespace: (env) => env.MCP_OBJECT });
