/** Child processes the harness drives directly: HTTP fixture servers and the byte floors. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Agent, request } from 'node:http';
import { childEnv, childNodeArgs, waitForExit } from './clients/types.js';
import { withTimeout } from './runner.js';

export interface MemoryReport {
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
  readonly sessions: number;
}

export interface HttpChild {
  readonly port: number;
  readonly url: string;
  /** Full GC in the child, then its memory (through the stdin/stdout side channel). */
  memory(): Promise<MemoryReport>;
  /** The fixture's own figures (counters, CPU time), read at once without a GC. */
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Spawns an HTTP fixture with `--expose-gc` and waits for `LISTENING <port>`. */
export async function spawnHttpServer(fixture: string, args: readonly string[] = []): Promise<HttpChild> {
  // BENCH_HTTP_SERVER_ARGS: extra fixture arguments for experiments (e.g. `--json` on statemcp).
  const extra = process.env.BENCH_HTTP_SERVER_ARGS?.split(' ').filter((s) => s.length > 0) ?? [];
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [...childNodeArgs(), fixture, ...args, ...extra], { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() });
  const pid = child.pid ?? -1;
  let buffered = '';
  const waiters: ((line: string) => boolean)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const index = waiters.findIndex((w) => w(line));
      if (index !== -1) waiters.splice(index, 1);
      nl = buffered.indexOf('\n');
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => process.stderr.write(`[${fixture.split('/').pop() ?? fixture}] ${chunk}`));
  const nextLine = (prefix: string): Promise<string> =>
    withTimeout(
      new Promise<string>((resolve) => {
        waiters.push((line) => {
          if (!line.startsWith(prefix)) return false;
          resolve(line.slice(prefix.length));
          return true;
        });
      }),
      20_000,
      `waiting for ${prefix.trim()} from ${fixture}`,
    );
  const port = Number(await nextLine('LISTENING '));
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    memory: async () => {
      const reply = nextLine('MEM ');
      child.stdin.write('mem\n');
      return JSON.parse(await reply) as MemoryReport;
    },
    stats: async () => {
      const reply = nextLine('STATS ');
      child.stdin.write('stats\n');
      return JSON.parse(await reply) as Record<string, number>;
    },
    stop: async () => {
      child.stdin.end();
      try {
        await waitForExit(pid, 5_000);
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}

/** The pipe floor: a child echoing stdin (or answering each newline with a big line). */
export interface PipeChild {
  /** Writes `line` + newline; resolves when the next full line comes back. */
  roundTrip(line: string): Promise<number>;
  stop(): Promise<void>;
}

export function spawnPipeFloor(fixture: string, args: readonly string[] = []): PipeChild {
  const child = spawn(process.execPath, [fixture, ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: childEnv() });
  const pid = child.pid ?? -1;
  const queue: ((bytes: number) => void)[] = [];
  let lineBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      lineBytes += nl - start;
      queue.shift()?.(lineBytes);
      lineBytes = 0;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    lineBytes += chunk.length - start;
  });
  return {
    roundTrip: (line) =>
      new Promise<number>((resolve) => {
        queue.push(resolve);
        child.stdin.write(`${line}\n`);
      }),
    stop: async () => {
      child.stdin.end();
      await waitForExit(pid, 5_000);
    },
  };
}

/** node:http keep-alive POST returning the response body (the HTTP byte floor's client). */
export function httpPoster(url: string): { post(body: string): Promise<string>; close(): void } {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  return {
    post: (body) =>
      new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (chunk: Buffer) => parts.push(chunk));
            res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/** A session the sessions workload opened: its id and its standalone GET SSE stream. */
export interface OpenSession {
  readonly sessionId: string;
  /** Resolves once the server ended the GET stream (or the socket closed). */
  readonly streamEnded: Promise<void>;
  /** Closes the GET stream from the client side. */
  destroyStream(): void;
}

const SESSION_PROTOCOL_VERSION = '2025-06-18';

/** One request on `agent`; resolves with the status and the session id header once the body ended. */
function sessionRequest(
  url: URL,
  agent: Agent,
  method: 'POST' | 'DELETE',
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; sessionId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => {
          const id = res.headers['mcp-session-id'];
          resolve({ status: res.statusCode ?? 0, sessionId: typeof id === 'string' ? id : undefined });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Opens one Streamable HTTP session the way a client does, without a client library, so the
 * sessions workload measures only the server: POST `initialize`, POST
 * `notifications/initialized`, then the standalone GET SSE stream (on `streamAgent`, one
 * socket each), resolved once the server answered 200 and left the stream open.
 */
export async function openSessionWithStream(url: string, agent: Agent, streamAgent: Agent): Promise<OpenSession> {
  const target = new URL(url);
  const init = await sessionRequest(
    target,
    agent,
    'POST',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: SESSION_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench-session', version: '1.0.0' } },
    }),
    {},
  );
  const sessionId = init.sessionId;
  if (init.status !== 200 || sessionId === undefined) throw new Error(`initialize answered ${init.status} without a session id`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': SESSION_PROTOCOL_VERSION };
  const done = await sessionRequest(target, agent, 'POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
  if (done.status !== 202 && done.status !== 200) throw new Error(`notifications/initialized answered ${done.status}`);
  return new Promise<OpenSession>((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'GET', agent: streamAgent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`the GET stream answered ${res.statusCode ?? 0}`));
        return;
      }
      const streamEnded = new Promise<void>((ended) => res.once('close', () => ended()));
      res.on('data', () => undefined);
      resolve({ sessionId, streamEnded, destroyStream: () => void req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** DELETEs a session (the client ending it); resolves with the status. */
export async function deleteSession(url: string, agent: Agent, sessionId: string): Promise<number> {
  const { status } = await sessionRequest(new URL(url), agent, 'DELETE', '', { 'mcp-session-id': sessionId, 'mcp-protocol-version': SESSION_PROTOCOL_VERSION });
  return status;
}
