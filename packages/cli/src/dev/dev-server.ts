/**
 * `startDevServer()`: one `McpServer` served over stdio and/or Streamable HTTP on 127.0.0.1,
 * its registrations taken from an entry module and reloaded in place on every file change:
 *
 *     file change ─▶ debounce ─▶ import new version ─▶ register on a recorder ─▶ diff ─▶ apply
 *                                     │ fails                 │ throws
 *                                     ▼                       ▼
 *                         keep serving the last good version, print the error
 *
 * Sessions are never dropped: the transports and connections stay, only registrations change,
 * and the server sends the list_changed notifications those changes call for (MCP 2025-11-25,
 * "Tools" § List Changed Notification, and the same for resources and prompts).
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { startInspector, type Inspector } from '@statemcp/inspector';
import { McpServer } from '@statemcp/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import type { Readable, Writable } from 'node:stream';
import { EntryModuleError, UsageError } from '../errors.js';
import { describeError, loadEntry, type DisposeServerModule, type LoadedEntry } from './entry-module.js';
import { LiveRegistrations, RELOADABLE_CAPABILITIES, RegistrationRecorder, type RegistrationDiff } from './registrations.js';

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** The entry module (TypeScript or JavaScript), relative to the current directory or absolute. */
  readonly entry: string;
  /** Serve one client over these streams (`true`: the process's stdin/stdout). Default false. */
  readonly stdio?: boolean | { readonly stdin: Readable; readonly stdout: Writable };
  /** Serve Streamable HTTP on 127.0.0.1 (`port` 0, the default, picks a free one). Default off. */
  readonly http?: { readonly port?: number };
  /** Start the inspector page (`@statemcp/inspector`). Default true. */
  readonly inspector?: boolean;
  /** Watch the entry's folder and reload on changes. Default true. */
  readonly watch?: boolean;
  /** Quiet time after the last change before reloading, in ms. Default 100. */
  readonly debounceMs?: number;
  /** Where progress and errors go (one line each). Default: stderr. */
  readonly log?: (line: string) => void;
}

/** The outcome of one reload. */
export type ReloadOutcome =
  | { readonly ok: true; readonly version: number; readonly diff: RegistrationDiff }
  | { readonly ok: false; readonly version: number; readonly error: EntryModuleError };

/** A running dev server. */
export interface DevServer {
  /** The live server (its registrations follow the entry module). */
  readonly server: McpServer;
  /** The Streamable HTTP endpoint, when serving HTTP. */
  readonly httpUrl: URL | undefined;
  /** The inspector page's address (with its token), when started. */
  readonly inspectorUrl: string | undefined;
  /** The version now serving: 1 for the first, 0 while none has loaded. */
  readonly version: number;
  /** Why the latest attempt failed, when it did (cleared by the next version that loads). */
  readonly lastError: EntryModuleError | undefined;
  /** Loads the entry module again now (what a file change does after the debounce). */
  reload(): Promise<ReloadOutcome>;
  /** Resolves when the stdio client has gone (stdin ended); never when not serving stdio. */
  readonly stdioClosed: Promise<void>;
  /** Stops watching, disposes the module, closes every session, the HTTP server and the inspector. Idempotent. */
  close(): Promise<void>;
}

const WATCHED_FILE = /\.(?:[cm]?[jt]sx?|json)$/;
const IGNORED_PATH = /(?:^|[\\/])(?:node_modules|\.git|dist)(?:[\\/]|$)/;


/**
 * Starts serving the entry module. When its first version cannot be used, the server starts
 * with nothing registered (and `version` 0) and serves the first version that loads.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const entry = resolve(options.entry);
  if (!existsSync(entry)) throw new UsageError(`${entry} does not exist; name the entry module, e.g. statemcp dev src/server.ts`);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  /** The version serving: 0 until one loads, then 1, 2, … */
  let version = 0;
  // Every import gets a loader namespace of its own, failed ones included (a namespace's modules stay cached).
  let attempts = 0;
  let lastError: EntryModuleError | undefined;
  let current: { loaded: LoadedEntry; dispose: DisposeServerModule | undefined } | undefined;

  const asEntryError = (error: unknown) => (error instanceof EntryModuleError ? error : new EntryModuleError('register-failed', entry, describeError(error), { cause: error }));
  let first: LoadedEntry | EntryModuleError;
  try {
    first = await loadEntry(entry, ++attempts);
  } catch (error) {
    first = asEntryError(error);
  }
  const serverInfo = first instanceof EntryModuleError ? undefined : first.serverInfo;
  const server = new McpServer(serverInfo ?? { name: 'statemcp-dev', version: '0.0.0' }, { capabilities: RELOADABLE_CAPABILITIES });
  const live = new LiveRegistrations(server);

  /** Runs a version's register function against a recorder; throws `EntryModuleError`. */
  async function record(loaded: LoadedEntry): Promise<{ recorder: RegistrationRecorder; dispose: DisposeServerModule | undefined }> {
    const recorder = new RegistrationRecorder(server, new McpServer({ name: 'statemcp-dev-check', version: '0' }));
    try {
      const dispose = await loaded.register(recorder.server);
      recorder.seal();
      return { recorder, dispose: typeof dispose === 'function' ? dispose : undefined };
    } catch (error) {
      recorder.seal();
      throw new EntryModuleError('register-failed', entry, `${entry}: the register function failed: ${describeError(error)}`, { cause: error });
    }
  }

  async function runDispose(dispose: DisposeServerModule | undefined): Promise<void> {
    try {
      await dispose?.();
    } catch (error) {
      log(`statemcp dev: the previous version's dispose function threw: ${describeError(error)}`);
    }
  }

  /** Serves `loaded` (or reports why it cannot be) in place of the current version. */
  async function adopt(loaded: LoadedEntry | EntryModuleError): Promise<ReloadOutcome> {
    try {
      if (loaded instanceof EntryModuleError) throw loaded;
      let recorded;
      try {
        recorded = await record(loaded);
      } catch (error) {
        await loaded.unload();
        throw error;
      }
      const diff = live.apply(recorded.recorder.registrations);
      const previous = current;
      current = { loaded, dispose: recorded.dispose };
      version++;
      lastError = undefined;
      if (previous !== undefined) {
        await runDispose(previous.dispose);
        await previous.loaded.unload();
      }
      const changes = [...diff.added.map((label) => `+${label}`), ...diff.updated.map((label) => `~${label}`), ...diff.removed.map((label) => `-${label}`)];
      log(`statemcp dev: ${version === 1 ? 'loaded' : 'reloaded'} v${version}${changes.length === 0 ? ' (no list changes)' : `: ${changes.join(', ')}`}`);
      return { ok: true, version, diff };
    } catch (error) {
      lastError = asEntryError(error);
      const kept = version === 0 ? 'nothing served yet (fix the module and save)' : `kept v${version} serving`;
      log(`statemcp dev: ${kept}; the new version failed:\n${lastError.message}`);
      // Clients that show server logs (and the inspector's timeline) see it too.
      void server.sendLoggingMessage({ level: 'error', logger: 'statemcp dev', data: `${kept}; the new version failed: ${lastError.message}` });
      return { ok: false, version, error: lastError };
    }
  }

  async function reloadOnce(): Promise<ReloadOutcome> {
    let loaded: LoadedEntry | EntryModuleError;
    try {
      loaded = await loadEntry(entry, ++attempts);
    } catch (error) {
      loaded = asEntryError(error);
    }
    return adopt(loaded);
  }

  await adopt(first);

  // One reload at a time; a change during a reload schedules exactly one more.
  let running: Promise<ReloadOutcome> | undefined;
  let again = false;
  function reload(): Promise<ReloadOutcome> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = reloadOnce().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void reload();
      }
    });
    return running;
  }

  const closers: (() => Promise<void>)[] = [];
  let watcher: FSWatcher | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    watcher?.close();
    clearTimeout(debounce);
    await running;
    for (const closer of closers.reverse()) await closer().catch((error: unknown) => log(`statemcp dev: while closing: ${describeError(error)}`));
    if (current !== undefined) {
      await runDispose(current.dispose);
      await current.loaded.unload();
    }
  };

  try {
    let stdioClosed: Promise<void> = new Promise<void>(() => undefined);
    if (options.stdio !== undefined && options.stdio !== false) {
      const streams = options.stdio === true ? { stdin: process.stdin, stdout: process.stdout } : options.stdio;
      const transport = new StdioServerTransport({ ...streams, exitOnClose: false });
      const connection = await server.connect(transport);
      stdioClosed = connection.closed.then(() => undefined);
    }
    let http: ListeningServer | undefined;
    if (options.http !== undefined) {
      const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
      const port = options.http.port ?? 0;
      http = await mcp.listen({ port, host: '127.0.0.1' }).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
        throw new UsageError(`port ${port} on 127.0.0.1 is in use; choose another with --port, or leave --port out for a free one`);
      });
      closers.push(() => (http as ListeningServer).close());
    }
    closers.push(() => server.close());
    let inspector: Inspector | undefined;
    if (options.inspector !== false) {
      inspector = await startInspector({ title: `statemcp dev ${entry}` });
      closers.push(() => (inspector as Inspector).close());
    }
    if (options.watch !== false) {
      const delay = options.debounceMs ?? 100;
      watcher = watch(dirname(entry), { recursive: true }, (_event, filename) => {
        if (filename === null || !WATCHED_FILE.test(filename) || IGNORED_PATH.test(filename)) return;
        clearTimeout(debounce);
        debounce = setTimeout(() => void reload(), delay);
      });
    }
    return {
      server,
      httpUrl: http?.url,
      inspectorUrl: inspector?.url,
      get version() {
        return version;
      },
      get lastError() {
        return lastError;
      },
      reload,
      stdioClosed,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
