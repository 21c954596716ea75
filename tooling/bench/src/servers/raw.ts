/**
 * The raw floor: a hand-written JSON-RPC server and client with no validation, no state
 * machine and no schema work — just enough MCP to answer the workloads. It is what the
 * transports cost with (almost) nothing on top.
 */
import { BIG_TOOL, ECHO_TOOL, MANY_TOOLS, SLEEP_TOOL, STATS_TOOL, bigText, extraTool, serverStats, type ServerCounters } from '../spec.js';

// Wire messages are untyped on purpose: the floor does not validate.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Message = any;

const LIST_SCHEMA = {
  type: 'object',
  properties: { query: { type: 'string' }, limit: { type: 'integer' } },
  required: ['query'],
};

function toolList(manyTools: boolean): Message[] {
  const tools: Message[] = [
    { name: ECHO_TOOL, description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    { name: BIG_TOOL, description: 'Returns a text of N bytes', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } }, required: ['bytes'] } },
    { name: SLEEP_TOOL, description: 'Ends only when cancelled', inputSchema: { type: 'object' } },
    { name: STATS_TOOL, description: 'GC, then memory and counters', inputSchema: { type: 'object' } },
  ];
  if (manyTools) for (let i = 0; i < MANY_TOOLS; i++) tools.push({ ...extraTool(i), inputSchema: LIST_SCHEMA });
  return tools;
}

/** A raw server: feed it parsed messages; it calls `reply` with response objects. */
export class RawServer {
  readonly counters: ServerCounters = { started: 0, aborted: 0 };
  readonly #tools: Message[];
  readonly #sleeping = new Set<unknown>();

  constructor(options: { manyTools?: boolean } = {}) {
    this.#tools = toolList(options.manyTools === true);
  }

  handle(message: Message, reply: (response: Message) => void): void {
    const { id, method, params } = message;
    switch (method) {
      case 'initialize':
        reply({
          jsonrpc: '2.0',
          id,
          result: { protocolVersion: params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'bench-raw', version: '1.0.0' } },
        });
        return;
      case 'ping':
        reply({ jsonrpc: '2.0', id, result: {} });
        return;
      case 'tools/list':
        reply({ jsonrpc: '2.0', id, result: { tools: this.#tools } });
        return;
      case 'tools/call':
        this.#call(id, params, reply);
        return;
      case 'notifications/cancelled':
        if (this.#sleeping.delete(params?.requestId)) this.counters.aborted++;
        return;
      default:
        if (id !== undefined) reply({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${String(method)}` } });
    }
  }

  #call(id: unknown, params: Message, reply: (response: Message) => void): void {
    const args = params?.arguments ?? {};
    switch (params?.name) {
      case ECHO_TOOL:
        reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: args.text }] } });
        return;
      case BIG_TOOL:
        reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: bigText(args.bytes) }] } });
        return;
      case SLEEP_TOOL:
        this.counters.started++;
        this.#sleeping.add(id);
        return;
      case STATS_TOOL:
        reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(serverStats(this.counters)) }] } });
        return;
      default:
        reply({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: String(args.query) }] } });
    }
  }
}

interface Pending {
  resolve(result: Message): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A raw client: correlation by id in a Map, optional timeout with `notifications/cancelled`. */
export class RawClient {
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  /** The per-request `_meta` of the 2026-07-28 era, once {@link modern} was called. */
  #meta: Message = undefined;
  /** Outbound `notifications/cancelled` sent. */
  cancelsSent = 0;

  constructor(private readonly send: (message: Message) => void) {}

  request(method: string, params?: Message, timeoutMs?: number): Promise<Message> {
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, timer: undefined };
      if (timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          this.#pending.delete(id);
          this.cancelsSent++;
          this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } });
          reject(new Error(`Request ${id} timed out after ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.#pending.set(id, pending);
      const meta = this.#meta;
      this.send(meta !== undefined ? { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } } : params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /**
   * 2026-07-28: no handshake; every request carries the per-request `_meta` (version,
   * capabilities, client info), as a modern client sends it.
   */
  modern(): void {
    this.#meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench-raw', version: '1.0.0' },
    };
  }

  notify(method: string, params?: Message): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  onMessage(message: Message): void {
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (message.error !== undefined) pending.reject(new Error(String(message.error.message)));
    else pending.resolve(message.result);
  }

  /** Rejects everything still pending. */
  failAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      if (pending.timer !== undefined) clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  async initialize(): Promise<void> {
    await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-raw', version: '1.0.0' } });
    this.notify('notifications/initialized');
  }
}

/** Splits a byte stream into lines without re-scanning (the floor's framing). */
export class RawLineSplitter {
  #parts: Buffer[] = [];

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      const piece = chunk.subarray(start, nl);
      if (this.#parts.length > 0) {
        this.#parts.push(piece);
        const line = Buffer.concat(this.#parts).toString('utf8');
        this.#parts = [];
        this.onLine(line);
      } else {
        this.onLine(piece.toString('utf8'));
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.#parts.push(chunk.subarray(start));
  }
}

/**
 * Serves the floor over this process's stdin/stdout (newline-delimited JSON) and exits when
 * stdin ends, as the stdio fixtures do.
 */
export function serveRawStdio(manyTools: boolean): void {
  const server = new RawServer({ manyTools });
  const reply = (response: unknown): void => {
    process.stdout.write(`${JSON.stringify(response)}\n`);
  };
  const splitter = new RawLineSplitter((line) => {
    if (line.length === 0) return;
    server.handle(JSON.parse(line), reply);
  });
  process.stdin.on('data', (chunk: Buffer) => splitter.push(chunk));
  process.stdin.on('end', () => process.exit(0));
}
