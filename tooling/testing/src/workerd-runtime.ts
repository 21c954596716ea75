/**
 * `@statemcp/testing/workerd`: runs a Worker under Cloudflare's workerd through miniflare for
 * integration tests. The Worker is bundled from source (the `@statemcp/source` condition) for a
 * platform with no Node built-in and runs with no compatibility flag (so no `nodejs_compat`),
 * its Durable Objects' storage persisted in a temporary folder. `restart()` disposes of the
 * runtime and starts a new one on the same port and storage: every object loses its memory and
 * keeps its storage, as an evicted object does. A subpath of its own, so tests that do not run
 * a Worker never load miniflare.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

/** Bundles `entry` for workerd; rejects when the bundle would need a Node built-in (it cannot resolve one). */
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

/** What a Worker runs with: its Durable Object bindings (binding → exported class name) and plain-text bindings. */
export interface WorkerRuntimeOptions {
  readonly durableObjects: Readonly<Record<string, string>>;
  readonly bindings?: Readonly<Record<string, string>>;
}

/** A Worker running under miniflare at 127.0.0.1 with persisted Durable Object storage. */
export class WorkerRuntime {
  /** The Worker's origin, `http://127.0.0.1:<port>/`. */
  readonly origin: URL;
  readonly #script: string;
  readonly #options: WorkerRuntimeOptions;
  readonly #port: number;
  readonly #persist: string;
  #miniflare: Miniflare;

  private constructor(script: string, options: WorkerRuntimeOptions, port: number, persist: string, miniflare: Miniflare) {
    this.#script = script;
    this.#options = options;
    this.#port = port;
    this.#persist = persist;
    this.#miniflare = miniflare;
    this.origin = new URL(`http://127.0.0.1:${port}/`);
  }

  /** Starts `script`, an ES module Worker (`bundleWorker`), on a free port. */
  static async start(script: string, options: WorkerRuntimeOptions): Promise<WorkerRuntime> {
    const port = await freePort();
    const persist = mkdtempSync(join(tmpdir(), 'statemcp-workerd-'));
    return new WorkerRuntime(script, options, port, persist, await WorkerRuntime.#launch(script, options, port, persist));
  }

  static async #launch(script: string, options: WorkerRuntimeOptions, port: number, persist: string): Promise<Miniflare> {
    const miniflare = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2025-09-01',
      compatibilityFlags: [],
      durableObjects: { ...options.durableObjects },
      durableObjectsPersist: persist,
      bindings: { ...options.bindings },
      host: '127.0.0.1',
      port,
      // workerd reports every client that leaves an SSE stream ("Broken pipe", then its stack):
      // that is what these tests do on purpose, so those lines are dropped and the rest shown.
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        for (const stream of [stdout, stderr]) {
          stream.setEncoding('utf8');
          let dropStack = false;
          stream.on('data', (chunk: string) => {
            for (const line of chunk.split('\n')) {
              if (line === '') continue;
              if (line.includes('Broken pipe') || (dropStack && line.startsWith('stack: '))) {
                dropStack = line.includes('Broken pipe');
                continue;
              }
              dropStack = false;
              process.stderr.write(`workerd: ${line}\n`);
            }
          });
        }
      },
    });
    await miniflare.ready;
    return miniflare;
  }

  /** Every object loses its memory and keeps its storage (a new runtime on the same port and storage). */
  async restart(): Promise<void> {
    await this.#miniflare.dispose();
    this.#miniflare = await WorkerRuntime.#launch(this.#script, this.#options, this.#port, this.#persist);
  }

  /** Stops the runtime and deletes its storage. */
  async close(): Promise<void> {
    await this.#miniflare.dispose();
    rmSync(this.#persist, { recursive: true, force: true });
  }
}
