/**
 * Fixtures for the integration tests that put `@statemcp/server`'s `McpServer` behind the
 * Streamable HTTP server on 127.0.0.1: the server itself (a few tools, one of which asks the
 * client for sampling and one for its roots), a starter that tracks listening servers for
 * cleanup, and a `fetch` wrapper that records every HTTP exchange a client makes.
 */
import { McpServer } from '@statemcp/server';

import {
  createStreamableHttpServer,
  type ListeningServer,
  type StreamableHttpServer,
  type StreamableHttpServerOptions,
} from '../src/server/index.js';

export const SERVER_NAME = 'statemcp-http-fixture';

/** What a tool that tried a server-to-client request saw, as the tool reports it. */
export interface AttemptReport {
  /** `error.name` of the rejection, or `'resolved'`. */
  readonly outcome: string;
  /** The typed error's stable `code`, when it has one. */
  readonly code: string | undefined;
  /**
   * Whether the attempt had settled before the next turn of the event loop (a `setImmediate`
   * queued right after the attempt): proof that no timer or network round trip was involved.
   */
  readonly settledBeforeNextTurn: boolean;
}

/** Runs `attempt` and reports how and when it settled (see {@link AttemptReport}). */
async function reportAttempt(attempt: () => Promise<unknown>): Promise<AttemptReport> {
  let settled = false;
  const pending = attempt().then(
    () => ({ outcome: 'resolved', code: undefined }),
    (error: unknown) => ({
      outcome: error instanceof Error ? error.name : typeof error,
      code: typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined,
    }),
  );
  void pending.then(() => {
    settled = true;
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  const settledBeforeNextTurn = settled;
  const { outcome, code } = await pending;
  return { outcome, code, settledBeforeNextTurn };
}

export interface FixtureHooks {
  /** Awaited by the `gated` tool before it answers (lets a test order events around a call). */
  gate?: () => Promise<void>;
  /** Called when the `gated` tool starts, with the state of the connection serving it at that moment. */
  onGatedStart?: (stateKind: string) => void;
}

/**
 * An `McpServer` with the tools the HTTP tests use:
 * - `echo { text }` → the text;
 * - `count` → progress 1..3 of 3, then `counted`;
 * - `ask_model` → samples the client (`sampling/createMessage`) and reports the answer;
 * - `try_sampling` / `try_roots` → attempt `sampling/createMessage` / `roots/list` and report
 *   the outcome as JSON ({@link AttemptReport}) instead of failing the call;
 * - `gated` → waits for `hooks.gate`, then answers `opened`.
 */
export function buildFixtureServer(hooks: FixtureHooks = {}): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    (args) => ({ content: [{ type: 'text', text: String((args as { text?: unknown }).text) }] }),
  );
  server.registerTool('count', { description: 'Reports progress' }, async (_args, extra) => {
    for (let i = 1; i <= 3; i++) await extra.sendProgress(i, 3);
    return { content: [{ type: 'text', text: 'counted' }] };
  });
  server.registerTool('ask_model', { description: 'Samples the client model' }, async (_args, extra) => {
    const answer = await extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 });
    const block = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return { content: [{ type: 'text', text: `model said: ${block?.type === 'text' ? block.text : '?'}` }] };
  });
  server.registerTool('try_sampling', { description: 'Attempts sampling and reports the outcome' }, async (_args, extra) => {
    const report = await reportAttempt(() =>
      extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }),
    );
    return { content: [{ type: 'text', text: JSON.stringify(report) }] };
  });
  server.registerTool('try_roots', { description: 'Attempts roots/list and reports the outcome' }, async (_args, extra) => {
    const report = await reportAttempt(() => extra.listRoots());
    return { content: [{ type: 'text', text: JSON.stringify(report) }] };
  });
  server.registerTool('gated', { description: 'Answers once the test opens its gate' }, async (_args, extra) => {
    hooks.onGatedStart?.(extra.connection.state.kind);
    await hooks.gate?.();
    return { content: [{ type: 'text', text: 'opened' }] };
  });
  return server;
}

export const FIXTURE_TOOLS = ['echo', 'count', 'ask_model', 'try_sampling', 'try_roots', 'gated'];

export interface StartedServer {
  readonly mcp: McpServer;
  readonly http: StreamableHttpServer;
  readonly listening: ListeningServer;
  readonly url: string;
}

/** Tracks listening servers so `afterEach` can close them. */
export class Servers {
  readonly #running: ListeningServer[] = [];

  /** Starts the fixture server behind `createStreamableHttpServer` on 127.0.0.1. */
  async start(
    options: Partial<StreamableHttpServerOptions> = {},
    listen: { port?: number } = {},
    hooks: FixtureHooks = {},
  ): Promise<StartedServer> {
    const mcp = buildFixtureServer(hooks);
    const http = createStreamableHttpServer({ connect: (transport) => mcp.connect(transport), ...options });
    const listening = await http.listen({ host: '127.0.0.1', ...listen });
    this.#running.push(listening);
    return { mcp, http, listening, url: listening.url.href };
  }

  /** Closes one server now (and forgets it). */
  async stop(server: StartedServer): Promise<void> {
    const index = this.#running.indexOf(server.listening);
    if (index >= 0) this.#running.splice(index, 1);
    await server.listening.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#running.splice(0).map((listening) => listening.close()));
  }
}

/** One HTTP exchange seen by {@link recordingFetch}. */
export interface Exchange {
  readonly method: string;
  /** Request headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body of a POST. */
  readonly body: unknown;
  /** The JSON-RPC method (or `response` for a response) of a POST body; undefined otherwise. */
  readonly rpc: string | undefined;
  /** The HTTP status, once the response headers arrived. */
  status: number | undefined;
}

/** A `fetch` that records every exchange before passing it on to the real one. */
export function recordingFetch(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(input instanceof Request ? input.headers : undefined).forEach((value, name) => {
      headers[name] = value;
    });
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const exchange: Exchange = {
      method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      headers,
      body,
      rpc: rpcName(body),
      status: undefined,
    };
    exchanges.push(exchange);
    const response = await fetch(input, init);
    exchange.status = response.status;
    return response;
  };
  return { fetch: wrapped, exchanges };
}

function rpcName(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if (Array.isArray(body)) return `batch(${body.map(rpcName).join(',')})`;
  const method = (body as { method?: unknown }).method;
  return typeof method === 'string' ? method : 'response';
}

/** Text of the first content block of a tool result. */
export function firstText(result: { content?: unknown }): string {
  const block = Array.isArray(result.content) ? (result.content[0] as { type?: string; text?: string } | undefined) : undefined;
  return block?.type === 'text' ? (block.text ?? '') : '';
}
