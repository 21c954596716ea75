/**
 * `statemcp-typegen`: connects statemcp's client to any MCP server (a stdio command or a
 * Streamable HTTP URL), lists its tools, prompts, resources and resource templates, and writes
 * a TypeScript module of their types for `typedClient` from `@statemcp/client`. Run again, it
 * reports what changed since the module on disk was written; `--check` fails instead of
 * writing when something did (for CI).
 *
 *     statemcp-typegen --out src/server-types.ts [--name Definitions] [--check] -- <server command> [args…]
 *     statemcp-typegen --out src/server-types.ts --url http://127.0.0.1:3000/mcp
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import type { Transport } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { generateModule, type ServerListing } from './generate-module.js';
import { describeChanges, diffManifests, readManifest, type DefinitionChange } from './manifest.js';

/** The server to read: a command run over stdio, or a Streamable HTTP endpoint. */
export type TypegenTarget = { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] } | { readonly kind: 'http'; readonly url: string };

/** The parsed `statemcp-typegen` command line. */
export interface TypegenCommandLine {
  readonly target: TypegenTarget;
  /** The module to write. */
  readonly out: string;
  /** The name of the definitions interface. */
  readonly typeName: string;
  /** Do not write; exit 1 when the module is missing or out of date. */
  readonly check: boolean;
}

/** The usage text of `statemcp-typegen`. */
export const TYPEGEN_USAGE = `usage: statemcp-typegen --out <file.ts> [--name <Type>] [--check] -- <server command> [args…]
       statemcp-typegen --out <file.ts> [--name <Type>] [--check] --url <Streamable HTTP URL>`;

/** Parses the command line; throws a `TypeError` with the usage on anything it cannot read. */
export function parseTypegenArgs(argv: readonly string[]): TypegenCommandLine {
  const values = new Map<string, string>();
  let check = false;
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index] ?? '';
    if (arg === '--') {
      index += 1;
      break;
    }
    if (arg === '--check') {
      check = true;
      index += 1;
      continue;
    }
    if (arg === '--out' || arg === '--url' || arg === '--name') {
      const value = argv[index + 1];
      if (value === undefined) throw new TypeError(`${arg} needs a value\n${TYPEGEN_USAGE}`);
      values.set(arg, value);
      index += 2;
      continue;
    }
    if (arg.startsWith('-')) throw new TypeError(`Unknown option ${arg}\n${TYPEGEN_USAGE}`);
    break;
  }
  const out = values.get('--out');
  if (out === undefined) throw new TypeError(`--out is required\n${TYPEGEN_USAGE}`);
  const typeName = values.get('--name') ?? 'ServerDefinitions';
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(typeName)) throw new TypeError(`--name must be a TypeScript identifier: ${typeName}\n${TYPEGEN_USAGE}`);
  const url = values.get('--url');
  const rest = argv.slice(index);
  if (url !== undefined) {
    if (rest.length > 0) throw new TypeError(`Give either --url or a server command, not both\n${TYPEGEN_USAGE}`);
    if (!/^https?:\/\//.test(url)) throw new TypeError(`--url must be an http(s) URL: ${url}\n${TYPEGEN_USAGE}`);
    return { target: { kind: 'http', url }, out, typeName, check };
  }
  const [command, ...args] = rest;
  if (command === undefined) throw new TypeError(`No server to read\n${TYPEGEN_USAGE}`);
  return { target: { kind: 'stdio', command, args }, out, typeName, check };
}

function transportFor(target: TypegenTarget): Transport {
  return target.kind === 'http' ? new StreamableHttpClientTransport(target.url) : new StdioClientTransport({ command: target.command, args: [...target.args], stderr: 'inherit' });
}

/** Lists everything a connected server offers (a list the server does not declare is empty). */
export async function readListing(client: Client): Promise<ServerListing> {
  const capabilities = client.serverCapabilities ?? {};
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    capabilities.tools === undefined ? [] : client.listAllTools(),
    capabilities.prompts === undefined ? [] : client.listAllPrompts(),
    capabilities.resources === undefined ? [] : client.listAllResources(),
    capabilities.resources === undefined ? [] : client.listAllResourceTemplates(),
  ]);
  const info = client.serverInfo;
  return { ...(info === undefined ? {} : { server: { name: info.name, version: info.version } }), tools, prompts, resources, resourceTemplates };
}

/** What one run did: the changes found, and whether the module was written. */
export interface TypegenOutcome {
  /** `undefined` when there was no earlier module (or it had no manifest) to compare with. */
  readonly changes: readonly DefinitionChange[] | undefined;
  readonly written: boolean;
  readonly code: string;
}

/**
 * Connects, lists, generates and (unless `check`) writes the module.
 *
 * @example
 * ```ts
 * import { runTypegen } from '@statemcp/typegen';
 * const outcome = await runTypegen({ target: { kind: 'http', url: 'http://127.0.0.1:3000/mcp' }, out: 'src/server-types.ts', typeName: 'Weather', check: false });
 * console.log(outcome.changes);
 * ```
 */
export async function runTypegen(commandLine: TypegenCommandLine): Promise<TypegenOutcome> {
  const client = new Client({ name: 'statemcp-typegen', version: '0.1.0' });
  let listing: ServerListing;
  try {
    await client.connect(transportFor(commandLine.target));
    listing = await readListing(client);
  } finally {
    await client.close();
  }
  const source = commandLine.target.kind === 'http' ? commandLine.target.url : [commandLine.target.command, ...commandLine.target.args].join(' ');
  const generated = generateModule(listing, { typeName: commandLine.typeName, source });
  const before = existsSync(commandLine.out) ? readFileSync(commandLine.out, 'utf8') : undefined;
  const previous = before === undefined ? undefined : readManifest(before);
  const changes = previous === undefined ? undefined : diffManifests(previous, generated.manifest);
  const upToDate = before === generated.code;
  if (!commandLine.check && !upToDate) {
    mkdirSync(dirname(commandLine.out), { recursive: true });
    writeFileSync(commandLine.out, generated.code);
  }
  return { changes, written: !commandLine.check && !upToDate, code: generated.code };
}

/** The command: returns the exit code (1 for a bad command line, a failed connection, or `--check` finding changes). */
export async function main(argv: readonly string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  let commandLine: TypegenCommandLine;
  try {
    commandLine = parseTypegenArgs(argv);
  } catch (error) {
    err((error as Error).message);
    return 1;
  }
  let outcome: TypegenOutcome;
  try {
    outcome = await runTypegen(commandLine);
  } catch (error) {
    err(`statemcp-typegen: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const lines = outcome.changes === undefined ? undefined : describeChanges(outcome.changes);
  if (lines === undefined) out(`${commandLine.check ? 'would write' : 'wrote'} ${commandLine.out} (no earlier manifest to compare with)`);
  else if (lines.length === 0) out(`${commandLine.out}: no definition changed${outcome.written ? ' (rewritten)' : ''}`);
  else out([`${commandLine.out}: ${lines.length} change${lines.length === 1 ? '' : 's'}${commandLine.check ? '' : ' written'}`, ...lines.map((line) => `  ${line}`)].join('\n'));
  if (commandLine.check) {
    const stale = outcome.changes === undefined || outcome.changes.length > 0 || !existsSync(commandLine.out) || readFileSync(commandLine.out, 'utf8') !== outcome.code;
    return stale ? 1 : 0;
  }
  return 0;
}
