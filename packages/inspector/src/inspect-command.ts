/**
 * `statemcp-inspect`: connects statemcp's client to any MCP server (a stdio command or a
 * Streamable HTTP URL), starts an inspector for this process and prints its address, so the
 * server can be explored from the page while its connection and requests move through their
 * states.
 *
 *     statemcp-inspect [--port N] -- <server command> [args…]
 *     statemcp-inspect [--port N] --url http://127.0.0.1:3000/mcp
 */
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import type { Transport } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { startInspector, type Inspector, type InspectorCommandHandler } from './inspector-server.js';
import { terminalText } from './terminal-text.js';

/** What the command line asked for. */
export type InspectTarget = { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] } | { readonly kind: 'http'; readonly url: string };

/** The parsed `statemcp-inspect` command line: what to inspect and the page's port. */
export interface InspectCommandLine {
  readonly target: InspectTarget;
  readonly port: number;
}

/** The usage text of `statemcp-inspect`. */
export const INSPECT_USAGE = `usage: statemcp-inspect [--port N] -- <server command> [args…]
       statemcp-inspect [--port N] --url <Streamable HTTP URL>`;

/** Parses the command line; throws a `TypeError` with the usage on anything it cannot read. */
export function parseInspectArgs(argv: readonly string[]): InspectCommandLine {
  let port = 0;
  let url: string | undefined;
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index] ?? '';
    if (arg === '--') {
      index += 1;
      break;
    }
    if (arg === '--port' || arg === '--url') {
      const value = argv[index + 1];
      if (value === undefined) throw new TypeError(`${arg} needs a value\n${INSPECT_USAGE}`);
      if (arg === '--url') url = value;
      else port = parsePort(value);
      index += 2;
      continue;
    }
    if (arg.startsWith('-')) throw new TypeError(`Unknown option ${arg}\n${INSPECT_USAGE}`);
    break;
  }
  const rest = argv.slice(index);
  if (url !== undefined) {
    if (rest.length > 0) throw new TypeError(`Give either --url or a server command, not both\n${INSPECT_USAGE}`);
    if (!/^https?:\/\//.test(url)) throw new TypeError(`--url must be an http(s) URL: ${url}\n${INSPECT_USAGE}`);
    return { target: { kind: 'http', url }, port };
  }
  const [command, ...args] = rest;
  if (command === undefined) throw new TypeError(`No server to inspect\n${INSPECT_USAGE}`);
  return { target: { kind: 'stdio', command, args }, port };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new TypeError(`--port must be 0–65535: ${value}\n${INSPECT_USAGE}`);
  return port;
}

/**
 * A transport for the target. A stdio server's stderr is passed on to this process's stderr
 * through `terminalText` (lines kept, escape sequences shown as text), never written
 * to the terminal as it came.
 */
export function transportFor(target: InspectTarget): Transport {
  if (target.kind === 'http') return new StreamableHttpClientTransport(target.url);
  // A stream decoder, so a UTF-8 character split between two chunks is not mangled.
  const decoder = new TextDecoder();
  const onStderr = (chunk: Buffer): void => void process.stderr.write(terminalText(decoder.decode(chunk, { stream: true }), { keepLines: true }));
  return new StdioClientTransport({ command: target.command, args: [...target.args], stderr: 'pipe', onStderr });
}

/** Runs the page's commands on a connected client. */
export function clientCommands(client: Client): InspectorCommandHandler {
  return async (method, params) => {
    const name = typeof params['name'] === 'string' ? params['name'] : '';
    const args = (params['arguments'] ?? {}) as Record<string, unknown>;
    switch (method) {
      case 'tools/list':
        return client.listTools();
      case 'tools/call':
        return client.callTool({ name, arguments: args });
      case 'resources/list':
        return client.listResources();
      case 'resources/templates/list':
        return client.listResourceTemplates();
      case 'resources/read':
        return client.readResource({ uri: typeof params['uri'] === 'string' ? params['uri'] : '' });
      case 'prompts/list':
        return client.listPrompts();
      case 'prompts/get':
        return client.getPrompt({ name, arguments: Object.fromEntries(Object.entries(args).map(([key, value]) => [key, String(value)])) });
    }
  };
}

/** A running inspection: the client, the page, and how to end both. */
export interface InspectSession {
  readonly client: Client;
  readonly inspector: Inspector;
  /** Closes the client (and the inspected process or session), then the page's server. */
  close(): Promise<void>;
}

/**
 * Starts the inspector first (so the handshake shows on the page), then connects the client.
 *
 * @example
 * ```ts
 * import { runInspect } from '@statemcp/inspector';
 * const session = await runInspect({ target: { kind: 'http', url: 'http://127.0.0.1:3000/mcp' }, port: 0 });
 * console.log(`inspector: ${session.inspector.url}`);
 * ```
 */
export async function runInspect(commandLine: InspectCommandLine): Promise<InspectSession> {
  const client = new Client({ name: 'statemcp-inspect', version: '0.1.0' });
  const title = commandLine.target.kind === 'http' ? commandLine.target.url : [commandLine.target.command, ...commandLine.target.args].join(' ');
  const inspector = await startInspector({ port: commandLine.port, title, commands: clientCommands(client) });
  try {
    await client.connect(transportFor(commandLine.target));
  } catch (error) {
    await inspector.close();
    throw error;
  }
  return {
    client,
    inspector,
    async close() {
      await client.close();
      await inspector.close();
    },
  };
}
