/**
 * Test support for the fault tests: clustered server instances as real child processes
 * (`fixtures/failover-instance.ts` over Redis, bundled from source once by
 * `@statemcp/testing/node-bundle`), and a `fetch` that sends each request to one of
 * them — the way a load balancer would — moving to the next instance when one refuses the
 * connection (it was killed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/failover-instance.ts', import.meta.url));

/** One running instance. */
export interface Instance {
  readonly id: string;
  readonly url: URL;
  readonly child: ChildProcess;
  /** Everything it wrote on stderr (its `onError` reports). */
  readonly stderr: string[];
  /** SIGKILL: as abrupt as a crash. */
  kill(): Promise<void>;
}

/** Starts instance `id` over the Redis at `redisUrl` with key prefix `prefix`. */
export async function startInstance(redisUrl: string, prefix: string, id: string, idleTimeoutMs?: number): Promise<Instance> {
  // Bundled once per test process: started through tsx, every instance compiled the sources itself (seconds each).
  const args = [await bundleNodeScript(fixture), redisUrl, prefix, id];
  if (idleTimeoutMs !== undefined) args.push(String(idleTimeoutMs));
  const child = spawn(process.execPath, args, { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const url = await new Promise<URL>((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line !== undefined) resolve(new URL((JSON.parse(line) as { url: string }).url));
    });
    child.once('exit', (code) => reject(new Error(`instance ${id} exited (${String(code)}): ${stderr.join('')}`)));
  });
  return {
    id,
    url,
    child,
    stderr,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function refused(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code === 'ECONNREFUSED' || cause?.code === 'ECONNRESET';
}

/** A `fetch` routing every request to `instances[target]`, and to the next one when it is down. */
export class InstanceRouter {
  readonly #instances: readonly Instance[];
  /** Which instance served each request, in order (`<method> <instance id>`). */
  readonly log: string[] = [];
  target = 0;

  constructor(instances: readonly Instance[]) {
    this.#instances = instances;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const original = new URL(input instanceof Request ? input.url : String(input));
    for (let tries = 0; tries < this.#instances.length; tries++) {
      const instance = this.#instances[this.target];
      if (instance === undefined) break;
      const url = new URL(original.pathname + original.search, instance.url);
      try {
        const response = await globalThis.fetch(url, init);
        this.log.push(`${init?.method ?? 'GET'} ${instance.id}`);
        return response;
      } catch (error) {
        // Never delivered: safe to send to the next instance, whatever the method.
        if (!refused(error)) throw error;
        this.target = (this.target + 1) % this.#instances.length;
      }
    }
    throw new TypeError('fetch failed: no instance accepts connections');
  };
}
