/**
 * Runs a Worker under workerd through miniflare for the integration tests: the Worker is
 * bundled from source (the `@statemcp/source` condition) with no Node built-in and run with no
 * compatibility flag (so no `nodejs_compat`), its Durable Objects' storage persisted in a
 * temporary folder. `restart()` disposes of the runtime and starts a new one on the same port
 * and storage: every object loses its memory and keeps its storage, as an evicted object does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

/** Bundles `entry` for workerd; rejects when the bundle would need a Node built-in. */
export async function bundleWorker(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['@statemcp/source', 'workerd', 'worker', 'browser', 'import', 'default'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild produced nothing for ${entry}`);
  return output.text;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A Worker running under miniflare at 127.0.0.1 with persisted Durable Object storage. */
export class WorkerRuntime {
  readonly url: URL;
  readonly #script: string;
  readonly #port: number;
  readonly #persist: string;
  #miniflare: Miniflare;

  private constructor(script: string, port: number, persist: string, miniflare: Miniflare) {
    this.#script = script;
    this.#port = port;
    this.#persist = persist;
    this.#miniflare = miniflare;
    this.url = new URL(`http://127.0.0.1:${port}/mcp`);
  }

  /** Starts `script` (an ES module Worker exporting `McpObject`, bound as `MCP_OBJECT`). */
  static async start(script: string): Promise<WorkerRuntime> {
    const port = await freePort();
    const persist = mkdtempSync(join(tmpdir(), 'statemcp-do-'));
    return new WorkerRuntime(script, port, persist, await WorkerRuntime.#launch(script, port, persist));
  }

  static async #launch(script: string, port: number, persist: string): Promise<Miniflare> {
    const miniflare = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2025-09-01',
      compatibilityFlags: [],
      durableObjects: { MCP_OBJECT: 'McpObject' },
      durableObjectsPersist: persist,
      host: '127.0.0.1',
      port,
    });
    await miniflare.ready;
    return miniflare;
  }

  /** Every object loses its memory and keeps its storage (a new runtime on the same port and storage). */
  async restart(): Promise<void> {
    await this.#miniflare.dispose();
    this.#miniflare = await WorkerRuntime.#launch(this.#script, this.#port, this.#persist);
  }

  async close(): Promise<void> {
    await this.#miniflare.dispose();
    rmSync(this.#persist, { recursive: true, force: true });
  }
}
