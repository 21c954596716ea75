/**
 * The entry module contract of `statemcp dev`, and loading one version of it.
 *
 * An entry module default-exports a register function: it gets an `McpServer` and registers
 * tools, resources, resource templates and prompts on it. It may return a dispose function
 * (called when the next version replaces it, and at exit) and may export `serverInfo`
 * (`{ name, version }`, read from the first version). For example:
 *
 * ```ts
 * import type { McpServer } from '@statemcp/server';
 * import { z } from 'zod';
 *
 * export default function register(server: McpServer): void {
 *   server.registerTool('greet', { inputSchema: { name: z.string() } }, ({ name }) => ({
 *     content: [{ type: 'text', text: `Hello, ${name}!` }],
 *   }));
 * }
 * ```
 *
 * Each version is imported through tsx in a namespace of its own (tsx's `register({ namespace })`
 * API), so the entry file and every module it imports — the project's own files and its
 * dependencies — are evaluated afresh: an edit to a helper module reloads as well as an edit to
 * the entry. (Old versions stay in memory until the process ends; this is a development tool.)
 */
import { pathToFileURL } from 'node:url';
import type { Implementation, McpServer } from '@statemcp/server';
import { register as registerTsx } from 'tsx/esm/api';
import { EntryModuleError } from '../errors.js';

/** Undoes what a register function set up beyond registrations (timers, connections). */
export type DisposeServerModule = () => void | Promise<void>;

/**
 * The default export of an entry module: registers everything on `server`, optionally
 * returning a {@link DisposeServerModule}.
 */
export type RegisterServer = (server: McpServer) => void | DisposeServerModule | Promise<void | DisposeServerModule>;

/** One imported version of the entry module. */
export interface LoadedEntry {
  readonly register: RegisterServer;
  /** The module's `serverInfo` export, when it has one. */
  readonly serverInfo: Implementation | undefined;
  /** Forgets this version's loader namespace (its modules stay usable). */
  unload(): Promise<void>;
}

const isImplementation = (value: unknown): value is Implementation =>
  typeof value === 'object' && value !== null && typeof (value as Implementation).name === 'string' && typeof (value as Implementation).version === 'string';

/** Imports the entry module at `file` (an absolute path) afresh; `attempt` names its loader namespace and must never repeat. */
export async function loadEntry(file: string, attempt: number): Promise<LoadedEntry> {
  const api = registerTsx({ namespace: `statemcp-dev-${process.pid}-${attempt}` });
  let namespace: Record<string, unknown>;
  try {
    namespace = (await api.import(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    await api.unregister();
    throw new EntryModuleError('load-failed', file, `${file} failed to load: ${describeError(error)}`, { cause: error });
  }
  const register = namespace.default;
  if (typeof register !== 'function') {
    await api.unregister();
    throw new EntryModuleError('bad-export', file, `${file} must default-export a function (server) => { server.registerTool(…) }; its default export is ${register === undefined ? 'missing' : typeof register}`);
  }
  return {
    register: register as RegisterServer,
    serverInfo: isImplementation(namespace.serverInfo) ? namespace.serverInfo : undefined,
    unload: () => api.unregister(),
  };
}

/**
 * An error's message; for a syntax error (Node's, or tsx's `TransformError` from esbuild) the
 * lines before the first stack frame, which hold the file, line and column.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name !== 'SyntaxError' && error.name !== 'TransformError') return error.message;
  const text = error.stack ?? error.message;
  const frame = text.search(/\n\s+at /);
  return frame === -1 ? text : text.slice(0, frame);
}
