/**
 * Raw JSON-RPC peers for the own-property test: they write exactly what the test says to the
 * fixture server (`fixtures/own-property-server.ts`) over a real stdio pipe or real HTTP on
 * 127.0.0.1, and hand back every answer unrepaired — the HTTP status too — so a crash shows
 * as a 500 or a -32603, not as a client-side error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';

type Json = Record<string, unknown>;

/** The 2025-11-25 handshake and the 2026-07-28 per-request `_meta`. */
export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What one request got: the HTTP status (HTTP only) and the JSON-RPC response, if any. */
export interface Answer {
  readonly status: number | undefined;
  readonly response: Json | undefined;
}

/** One way of reaching the fixture server; `modern` requests carry the 2026-07-28 `_meta`. */
export interface NamePeer {
  readonly transport: 'stdio' | 'http';
  request(method: string, params: Json, era?: 'legacy' | 'modern'): Promise<Answer>;
  notify(method: string, params: Json): Promise<Answer>;
  close(): Promise<void>;
}

/** The `_meta` every 2026-07-28 request carries (the tasks extension and elicitation declared). */
export function modernMeta(extra: Json = {}): Json {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'own-property-test', version: '1.0.0' },
    ...extra,
  };
}

function withModernMeta(params: Json): Json {
  const meta = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Json) : {};
  return { ...params, _meta: modernMeta(meta) };
}

/** An `initialize` whose capabilities carry `Object.prototype` names as keys (JSON text, so `__proto__` is a member). */
function initializeParams(names: readonly string[]): Json {
  const members = names.map((name) => `${JSON.stringify(name)}:{}`).join(',');
  return JSON.parse(
    `{"protocolVersion":"${LEGACY_VERSION}","capabilities":{${members},"experimental":{${members}},"elicitation":{}},"clientInfo":{"name":"own-property-test","version":"1.0.0"}}`,
  ) as Json;
}

/** How long a stdio request may go unanswered before the test records `no answer`. */
const ANSWER_DEADLINE_MS = 10_000;

const FIXTURE = fileURLToPath(new URL('../fixtures/own-property-server.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The fixture server, bundled from source once per test process (`@statemcp/testing/node-bundle`). */
async function spawnServer(mode: '--stdio' | '--http'): Promise<ChildProcess> {
  return spawn(process.execPath, [await bundleNodeScript(FIXTURE), mode], { cwd: PACKAGE_DIR, stdio: ['pipe', 'pipe', 'pipe'] });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Collects a child's stderr for failure messages. */
function stderrOf(child: ChildProcess): { text: string } {
  const sink = { text: '' };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    sink.text += chunk;
  });
  return sink;
}

/** One stdio server process and the requests waiting for its answers. */
class StdioChannel {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (response: Json) => void>();
  readonly stderr: { text: string };
  #next = 0;

  constructor(child: ChildProcess) {
    this.#child = child;
    this.stderr = stderrOf(child);
    if (child.stdout === null) throw new Error('the fixture needs a piped stdout');
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Json;
      const id = message.id;
      if (typeof id !== 'number' || !('result' in message || 'error' in message)) return;
      this.#waiting.get(id)?.(message);
      this.#waiting.delete(id);
    });
  }

  write(message: Json): void {
    this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  async request(method: string, params: Json): Promise<Answer> {
    const id = ++this.#next;
    // A request nobody answers is an outcome of its own (`no answer`), not a hung test.
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<Json | undefined>((resolve) => {
      this.#waiting.set(id, resolve);
      timer = setTimeout(() => {
        this.#waiting.delete(id);
        resolve(undefined);
      }, ANSWER_DEADLINE_MS);
    });
    this.write({ jsonrpc: '2.0', id, method, params });
    const response = await answered;
    clearTimeout(timer);
    return { status: undefined, response };
  }

  /** Resolves once the server said it is ready on stderr (start-up can take a second on a loaded machine). */
  async ready(): Promise<void> {
    while (!this.stderr.text.includes('ready')) {
      if (this.#child.exitCode !== null) throw new Error(`the stdio fixture exited: ${this.stderr.text}`);
      await Promise.race([once(this.#child.stderr ?? this.#child, 'data'), once(this.#child, 'exit')]);
    }
  }

  close(): Promise<void> {
    return stopChild(this.#child);
  }
}

/**
 * Two stdio server processes: one after a 2025-11-25 handshake (legacy requests), one that
 * never had one (2026-07-28 requests, each carrying its `_meta`), as a client of either era sees it.
 */
class StdioNamePeer implements NamePeer {
  readonly transport = 'stdio';

  constructor(
    readonly legacy: StdioChannel,
    readonly modern: StdioChannel,
  ) {}

  request(method: string, params: Json, era: 'legacy' | 'modern' = 'legacy'): Promise<Answer> {
    return era === 'modern' ? this.modern.request(method, withModernMeta(params)) : this.legacy.request(method, params);
  }

  notify(method: string, params: Json): Promise<Answer> {
    this.legacy.write({ jsonrpc: '2.0', method, params });
    return Promise.resolve({ status: undefined, response: undefined });
  }

  async close(): Promise<void> {
    await Promise.all([this.legacy.close(), this.modern.close()]);
  }
}

class HttpNamePeer implements NamePeer {
  readonly transport = 'http';
  readonly #child: ChildProcess;
  readonly #url: string;
  readonly stderr: { text: string };
  #session: string | undefined;
  #next = 0;

  constructor(child: ChildProcess, url: string, stderr: { text: string }) {
    this.#child = child;
    this.#url = url;
    this.stderr = stderr;
  }

  async #post(message: Json, headers: Record<string, string>): Promise<Answer> {
    const response = await fetch(this.#url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer good', ...headers },
      body: JSON.stringify(message),
    });
    const session = response.headers.get('mcp-session-id');
    if (session !== null) this.#session = session;
    const text = await response.text();
    return { status: response.status, response: text === '' ? undefined : (JSON.parse(text) as Json) };
  }

  #legacyHeaders(): Record<string, string> {
    return this.#session === undefined ? {} : { 'mcp-session-id': this.#session, 'mcp-protocol-version': LEGACY_VERSION };
  }

  request(method: string, params: Json, era: 'legacy' | 'modern' = 'legacy'): Promise<Answer> {
    const id = ++this.#next;
    if (era === 'legacy') return this.#post({ jsonrpc: '2.0', id, method, params }, this.#legacyHeaders());
    // The 2026-07-28 routing headers mirror the body (else -32020).
    const named = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' } as const;
    const key = (named as Record<string, string | undefined>)[method];
    const name = key === undefined ? undefined : params[key];
    const headers: Record<string, string> = { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method };
    if (typeof name === 'string') headers['mcp-name'] = name;
    return this.#post({ jsonrpc: '2.0', id, method, params: withModernMeta(params) }, headers);
  }

  notify(method: string, params: Json): Promise<Answer> {
    return this.#post({ jsonrpc: '2.0', method, params }, this.#legacyHeaders());
  }

  /** A request of the session with extra headers (their names `Object.prototype` names). */
  withHeaders(method: string, params: Json, headers: Record<string, string>): Promise<Answer> {
    return this.#post({ jsonrpc: '2.0', id: ++this.#next, method, params }, { ...this.#legacyHeaders(), ...headers });
  }

  close(): Promise<void> {
    this.#child.stdin?.end();
    return stopChild(this.#child);
  }
}

/** Starts the stdio fixture and completes the 2025-11-25 handshake. */
export async function stdioPeer(names: readonly string[]): Promise<StdioNamePeer> {
  const [legacy, modern] = await Promise.all([spawnServer('--stdio'), spawnServer('--stdio')]);
  const peer = new StdioNamePeer(new StdioChannel(legacy), new StdioChannel(modern));
  await Promise.all([peer.legacy.ready(), peer.modern.ready()]);
  const init = await peer.request('initialize', initializeParams(names));
  if (init.response?.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(init)} ${peer.legacy.stderr.text}`);
  await peer.notify('notifications/initialized', {});
  return peer;
}

/** Starts the HTTP fixture and opens a 2025-11-25 session (token `good`). */
export async function httpPeer(names: readonly string[]): Promise<HttpNamePeer> {
  const child = await spawnServer('--http');
  const stderr = stderrOf(child);
  if (child.stdout === null) throw new Error('the fixture needs a piped stdout');
  const lines = createInterface({ input: child.stdout });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => {
      throw new Error(`the HTTP fixture exited: ${stderr.text}`);
    }),
  ])) as [string];
  if (!line.startsWith('LISTENING ')) throw new Error(`unexpected fixture output: ${line}`);
  const peer = new HttpNamePeer(child, line.slice('LISTENING '.length), stderr);
  const init = await peer.request('initialize', initializeParams(names));
  if (init.response?.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(init)} ${stderr.text}`);
  await peer.notify('notifications/initialized', {});
  return peer;
}
