/**
 * The quickstart tour. For each transport — stdio (the server is a child process on pipes) and
 * Streamable HTTP (the server is a child process listening on 127.0.0.1) — one client:
 *
 *   connects (Uninitialized → Initializing → Initialized → Operating), prints the negotiated
 *   version and capabilities, lists and calls a tool, reads a resource, gets a prompt, lets a
 *   slow call time out (a `notifications/cancelled` goes out and the server's handler is
 *   aborted), and closes gracefully (ShuttingDown → Terminated).
 *
 * Every connection and request transition of both sides is printed on one timeline. Those two
 * legs pin the legacy era (the `initialize` handshake); a third leg shows the 2026-07-28 era
 * over stdio: `server/discover` instead of a handshake, a list served from the client's
 * response cache the second time, a Multi Round-Trip request (the server's `ctx.elicit()`
 * becomes an `InputRequiredResult`, the client answers and retries) and a `subscriptions/listen`
 * stream (acknowledged, a notification tagged with its subscription id, a graceful end).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, McpError, type ListToolsResult, type ServerCapabilities } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import type { InspectEvent, Transport } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { parseTraceLine } from './example-server.js';
import { Timeline, lineSplitter, stateName } from './timeline.js';

const REGISTER = new URL('../bin/register.mjs', import.meta.url).href;
const SERVE_EXAMPLE = fileURLToPath(new URL('./serve-example.ts', import.meta.url));
/** How the example server child is started: this Node, running the TypeScript source. */
const NODE_ARGS = ['--import', REGISTER, SERVE_EXAMPLE];

/** The timeout the slow call runs into, ms. */
export const SLOW_CALL_TIMEOUT_MS = 300;

/** `{ tools: { listChanged: true }, logging: {} }` → `tools (listChanged), logging`. */
export function describeCapabilities(capabilities: ServerCapabilities | undefined): string {
  if (capabilities === undefined) return 'none';
  return Object.entries(capabilities)
    .map(([name, value]) => {
      const flags = typeof value === 'object' && value !== null ? Object.keys(value) : [];
      return flags.length === 0 ? name : `${name} (${flags.join(', ')})`;
    })
    .join(', ');
}

const textOf = (content: readonly { type: string; text?: string }[]): string =>
  content.map((block) => (block.type === 'text' ? (block.text ?? '') : `[${block.type}]`)).join(' ');

/**
 * The server child's side of the story, read from its stderr: trace lines go onto the timeline
 * (and can be waited for), anything else is printed as is.
 */
class ServerTrace {
  readonly #timeline: Timeline;
  readonly #log: (line: string) => void;
  readonly #waiters = new Set<(event: InspectEvent) => void>();
  readonly onStderr: (chunk: Buffer | string) => void;

  constructor(timeline: Timeline, log: (line: string) => void) {
    this.#timeline = timeline;
    this.#log = log;
    this.onStderr = lineSplitter((line) => this.#line(line));
  }

  /** Resolves true once the server reports an event matching `predicate`, false after `timeoutMs`. */
  waitFor(predicate: (event: InspectEvent) => boolean, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter = (event: InspectEvent): void => {
        if (!predicate(event)) return;
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  #line(line: string): void {
    const trace = parseTraceLine(line);
    if (trace === undefined) {
      if (line.trim() !== '') this.#log(`  server stderr: ${line}`);
      return;
    }
    this.#timeline.remote('server', trace.wallMs, trace.event);
    for (const waiter of [...this.#waiters]) waiter(trace.event);
  }
}

/** One client's walk through the lifecycle over `transport`. */
async function converse(timeline: Timeline, server: ServerTrace, transport: Transport): Promise<string[]> {
  const client = new Client({ name: 'quickstart-client', version: '1.0.0' }, { era: 'legacy', inspect: (event) => timeline.local('client', event) });
  const seen = new Set<string>([stateName(client.state.kind)]);
  client.session.onTransition((to) => seen.add(stateName(to.kind)));
  timeline.note(`new Client: connection ${stateName(client.state.kind)}`);

  await client.connect(transport);
  timeline.note(`negotiated protocol ${client.protocolVersion ?? '?'} with ${client.serverInfo?.name ?? '?'} ${client.serverInfo?.version ?? ''}`);
  timeline.note(`server capabilities: ${describeCapabilities(client.serverCapabilities)}`);

  const { tools } = await client.listTools();
  timeline.note(`tools/list: ${tools.map((tool) => `${tool.name} (${tool.description ?? ''})`).join(', ')}`);

  const greeting = await client.callTool({ name: 'greet', arguments: { name: 'statemcp' } });
  timeline.note(`tools/call greet: "${textOf(greeting.content)}"`);

  const resource = await client.readResource({ uri: 'demo://hello' });
  const contents = resource.contents[0];
  timeline.note(`resources/read demo://hello: "${contents !== undefined && 'text' in contents ? contents.text : '?'}"`);

  const prompt = await client.getPrompt({ name: 'summarize', arguments: { topic: 'the MCP lifecycle' } });
  const first = prompt.messages[0]?.content;
  timeline.note(`prompts/get summarize: "${first?.type === 'text' ? first.text : '?'}"`);

  timeline.note(`tools/call slow_task {ms: 5000} with a ${SLOW_CALL_TIMEOUT_MS} ms timeout…`);
  try {
    await client.callTool({ name: 'slow_task', arguments: { ms: 5000 } }, { timeoutMs: SLOW_CALL_TIMEOUT_MS });
    timeline.note('slow_task finished?! (it should have timed out)');
  } catch (error) {
    const detail = error instanceof McpError ? `${error.name} (code ${error.code}, category ${error.category})` : String(error);
    timeline.note(`slow_task rejected: ${detail}; the server was told with notifications/cancelled`);
  }

  // Over HTTP the cancellation is a POST of its own; let the server see it before closing.
  const observed = await server.waitFor((event) => event.type === 'request.transition' && event.method === 'tools/call' && event.to === 'cancelled', 2000);
  if (!observed) timeline.note('the server has not reported the cancellation within 2 s');
  timeline.note('client.close()');
  await client.close();
  const info = await client.closed;
  timeline.note(`closed: connection ${stateName(client.state.kind)}, reason ${info.reason}`);
  return [...seen];
}

/** The stdio leg: the client spawns the server and owns its process tree. */
export async function stdioTour(timeline: Timeline, log: (line: string) => void): Promise<string[]> {
  const server = new ServerTrace(timeline, log);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_ARGS, '--stdio'],
    onStderr: server.onStderr,
  });
  const states = await converse(timeline, server, transport);
  // Let the last stderr lines of the exiting child arrive before printing.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return states;
}

interface HttpChild {
  readonly url: string;
  readonly trace: ServerTrace;
  stop(): Promise<void>;
}

function startHttpServer(timeline: Timeline, log: (line: string) => void): Promise<HttpChild> {
  const trace = new ServerTrace(timeline, log);
  const child: ChildProcess = spawn(process.execPath, [...NODE_ARGS, '--http'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', trace.onStderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the example HTTP server did not start within 30 s'));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the example HTTP server exited early (code ${String(code)})`));
    });
    child.stdout?.on(
      'data',
      lineSplitter((line) => {
        const match = /listening on (\S+)/.exec(line);
        if (match?.[1] === undefined) return;
        clearTimeout(timer);
        resolve({
          url: match[1],
          trace,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }),
    );
  });
}

/** The Streamable HTTP leg: the server runs on 127.0.0.1 in a child process; the client speaks HTTP to it. */
export async function httpTour(timeline: Timeline, log: (line: string) => void): Promise<string[]> {
  const server = await startHttpServer(timeline, log);
  timeline.note(`example server listening on ${server.url}`);
  try {
    return await converse(timeline, server.trace, new StreamableHttpClientTransport(server.url));
  } finally {
    await server.stop();
  }
}

/**
 * A Multi Round-Trip request (MCP 2026-07-28 basic/patterns/mrtr): `ask_name` calls
 * `ctx.elicit()`; the server ends the
 * attempt with an `InputRequiredResult` (its inbound request shows `waitingForInput`), the
 * client answers through `onElicitation` and retries under a new id, and the server's handler
 * runs again with the answer.
 */
async function multiRoundTrip(timeline: Timeline, client: Client, rounds: { count: number }): Promise<void> {
  timeline.note('tools/call ask_name: the handler calls ctx.elicit(), which this era turns into an InputRequiredResult');
  const before = rounds.count;
  const result = await client.callTool({ name: 'ask_name' });
  timeline.note(`tools/call ask_name: "${textOf(result.content)}" after ${String(rounds.count - before)} input round(s); the retry carried inputResponses and the echoed requestState`);
}

/**
 * A `subscriptions/listen` stream (MCP 2026-07-28 basic/patterns/subscriptions): acknowledged with
 * the filter the server honours,
 * a `notifications/tools/list_changed` tagged with the stream's subscription id (it also
 * invalidates the cached tools list), and the server's graceful end (a `SubscriptionsListenResult`).
 */
async function listenStream(timeline: Timeline, client: Client): Promise<void> {
  const stream = await client.listen({ toolsListChanged: true });
  timeline.note(`listen acknowledged: subscriptionId ${String(stream.id)}, honoured ${JSON.stringify(stream.acknowledged)}`);
  const notified = new Promise<void>((resolve) => {
    const remove = stream.onNotification(({ method, params }) => {
      const meta = params._meta as Record<string, unknown> | undefined;
      timeline.note(`listen notification: ${method}, subscriptionId ${String(meta?.['io.modelcontextprotocol/subscriptionId'])}`);
      remove();
      resolve();
    });
  });
  await client.callTool({ name: 'add_tool', arguments: { name: 'farewell' } });
  await notified;
  const { tools } = await client.listTools();
  timeline.note(`tools/list after the change: ${tools.map((tool) => tool.name).join(', ')} (the notification invalidated the cached list; cache misses ${client.cacheStats?.misses ?? 0})`);
  await client.callTool({ name: 'end_listens' });
  const end = await stream.ended;
  timeline.note(`listen ended: reason ${end.reason} (the server's graceful SubscriptionsListenResult)`);
}

/**
 * The 2026-07-28 leg, over stdio: with `era: 'auto'` the client discovers the server instead
 * of a handshake, every request carries its version and capabilities in `_meta`, and the second
 * `tools/list` is answered from the response cache (the server marked the list `ttlMs: 60000`).
 */
export async function modernTour(timeline: Timeline, log: (line: string) => void): Promise<string[]> {
  const server = new ServerTrace(timeline, log);
  const transport = new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, '--stdio'], onStderr: server.onStderr });
  const rounds = { count: 0 };
  const client = new Client({ name: 'quickstart-client', version: '1.0.0' }, {
    era: 'auto',
    // The child may take seconds to start on a busy machine; a discovery timed out too early would fall back to the handshake.
    discoveryTimeoutMs: 60_000,
    inspect: (event) => {
      timeline.local('client', event);
      if (event.type === 'request.transition' && event.direction === 'outbound' && event.to === 'waitingForInput') rounds.count += 1;
    },
    // The same handler answers a legacy server's elicitation/create and a modern one's input request.
    onElicitation: (params) => {
      timeline.note(`onElicitation: "${params.message}" → accept {name: "Ada"}`);
      return { action: 'accept', content: { name: 'Ada' } };
    },
  });
  const seen = new Set<string>([stateName(client.state.kind)]);
  client.session.onTransition((to) => seen.add(stateName(to.kind)));

  await client.connect(transport);
  timeline.note(`server/discover: era ${client.era ?? '?'}, protocol ${client.protocolVersion ?? '?'} with ${client.serverInfo?.name ?? '?'}; no initialize was sent`);
  timeline.note(`server capabilities: ${describeCapabilities(client.serverCapabilities)}`);

  const first = (await client.listTools()) as ListToolsResult & { ttlMs?: number; cacheScope?: string };
  timeline.note(`tools/list: ${first.tools.map((tool) => tool.name).join(', ')} (ttlMs ${String(first.ttlMs)}, cacheScope ${String(first.cacheScope)})`);
  await client.listTools();
  const stats = client.cacheStats;
  timeline.note(`tools/list again: served from the response cache, nothing sent (cache hits ${stats?.hits ?? 0}, misses ${stats?.misses ?? 0})`);

  await multiRoundTrip(timeline, client, rounds);
  await listenStream(timeline, client);

  await client.close();
  const info = await client.closed;
  timeline.note(`closed: connection ${stateName(client.state.kind)}, reason ${info.reason}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return [...seen];
}

export const ALL_STATES = ['Uninitialized', 'Initializing', 'Initialized', 'Operating', 'ShuttingDown', 'Terminated'];

/** What a 2026-07-28 connection goes through: discovery is its Initializing, and there is no Initialized. */
export const MODERN_STATES = ['Uninitialized', 'Initializing', 'Operating', 'ShuttingDown', 'Terminated'];

/** Runs every leg, printing as it goes. Resolves with true when every leg saw the states of its era. */
export async function runQuickstart(log: (line: string) => void = console.log): Promise<boolean> {
  const timeline = new Timeline(log);
  let ok = true;
  const legs: [string, (timeline: Timeline, log: (line: string) => void) => Promise<string[]>, readonly string[]][] = [
    ['stdio: the example server is a child process speaking over its stdin/stdout', stdioTour, ALL_STATES],
    ['Streamable HTTP: the example server is a child process listening on 127.0.0.1', httpTour, ALL_STATES],
    ['2026-07-28 over stdio: discovery instead of a handshake, a cached list, an MRTR round and a listen stream', modernTour, MODERN_STATES],
  ];
  for (const [title, leg, expected] of legs) {
    log('');
    log(`━━ ${title}`);
    log('   offset     side    what happened');
    const states = await leg(timeline, log);
    timeline.flush();
    const missing = expected.filter((state) => !states.includes(state));
    log(`   client connection states: ${ALL_STATES.filter((state) => states.includes(state)).join(' → ')}`);
    if (missing.length > 0) {
      ok = false;
      log(`   MISSING states: ${missing.join(', ')}`);
    }
  }
  return ok;
}
