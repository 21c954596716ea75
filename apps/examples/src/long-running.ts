/**
 * A long-running tool: progress notifications that keep the call's timeout alive, a hard
 * maximum, and cancellation from the client that aborts the server's handler.
 */
import { Client, RequestCancelledError, RequestTimeoutError } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
}

/** The server: `crunch` works in steps, reports progress, and stops when its signal aborts. */
export function createWorkServer(onAborted: (reason: unknown) => void): McpServer {
  const server = new McpServer({ name: 'worker', version: '1.0.0' });
  server.registerTool('crunch', { inputSchema: { steps: z.number().int().positive(), stepMs: z.number() } }, async ({ steps, stepMs }, extra) => {
    extra.signal.addEventListener('abort', () => onAborted(extra.signal.reason), { once: true });
    for (let step = 1; step <= steps; step += 1) {
      await sleep(stepMs, extra.signal);
      await extra.sendProgress(step, steps, `step ${step} of ${steps}`);
    }
    return { content: [{ type: 'text', text: `crunched ${steps} steps` }] };
  });
  return server;
}

/** Runs three calls: one kept alive by progress, one cancelled, one past its hard maximum. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const aborted: unknown[] = [];
  const server = createWorkServer((reason) => aborted.push(reason));
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'work-client', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(clientSide);

  // 5 steps of 20 ms take 100 ms, more than the 50 ms timeout: each progress update restarts it.
  const done = await client.callTool(
    { name: 'crunch', arguments: { steps: 5, stepMs: 20 } },
    { timeoutMs: 50, onProgress: ({ progress, total }) => log(`progress ${progress}/${total ?? '?'}`) },
  );
  log(`done: ${JSON.stringify(done.content[0])}`);

  // Cancelling sends notifications/cancelled; the server's handler sees its signal abort.
  const controller = new AbortController();
  const cancelled = client.callTool({ name: 'crunch', arguments: { steps: 100, stepMs: 20 } }, { signal: controller.signal });
  setTimeout(() => controller.abort('user pressed stop'), 30);
  await cancelled.catch((error: unknown) => log(`cancelled: ${error instanceof RequestCancelledError} (${(error as Error).message})`));

  // Progress restarts the timeout, but never past maxTotalTimeoutMs.
  const capped = client.callTool({ name: 'crunch', arguments: { steps: 100, stepMs: 10 } }, { timeoutMs: 50, maxTotalTimeoutMs: 120 });
  await capped.catch((error: unknown) => log(`capped: ${error instanceof RequestTimeoutError} (${(error as Error).message})`));

  await client.close();
  await server.close();
  log(`server handlers aborted: ${aborted.length}`);
}
