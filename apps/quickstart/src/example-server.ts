/**
 * The quickstart's example server: one tool that answers at once, one that takes its time
 * (so a client timeout can be shown), a resource and a prompt; for the 2026-07-28 leg, a tool
 * that asks the user's name (`ctx.elicit()`: a Multi Round-Trip round in that era), one that
 * registers another tool (a tools list change for a listen stream) and one that ends every
 * listen stream gracefully. The quickstart starts it as a
 * child process, over stdio (`--stdio`) or Streamable HTTP on 127.0.0.1 (`--http`, prints
 * its URL on stdout).
 *
 * The server's own view of the lifecycle goes to stderr as one JSON line per inspection event
 * (see `ServerTraceLine`), so the quickstart can merge both sides into one timeline.
 */
import type { InspectEvent } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** What the server writes to stderr for each connection or request transition. */
export interface ServerTraceLine {
  readonly trace: 'statemcp';
  /** Wall-clock time of the event, ms since the epoch (fractional). */
  readonly wallMs: number;
  readonly event: InspectEvent;
}

export function traceLine(event: InspectEvent): string {
  const line: ServerTraceLine = { trace: 'statemcp', wallMs: performance.timeOrigin + event.at, event };
  return `${JSON.stringify(line)}\n`;
}

/** Parses a stderr line written by {@link traceLine}; `undefined` for anything else. */
export function parseTraceLine(line: string): ServerTraceLine | undefined {
  if (!line.startsWith('{"trace":"statemcp"')) return undefined;
  try {
    return JSON.parse(line) as ServerTraceLine;
  } catch {
    return undefined;
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

export function createExampleServer(inspect?: (event: InspectEvent) => void): McpServer {
  const server = new McpServer(
    { name: 'quickstart-example-server', version: '1.0.0' },
    {
      instructions: 'A tiny server for the statemcp quickstart.',
      // 2026-07-28 clients may reuse the lists and reads for a minute (legacy results carry no hints).
      cache: { ttlMs: 60_000, cacheScope: 'public' },
      ...(inspect !== undefined ? { inspect } : {}),
    },
  );

  server.registerTool(
    'greet',
    { description: 'Greets someone by name', inputSchema: { name: z.string().describe('Who to greet') } },
    ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );

  server.registerTool(
    'slow_task',
    { description: 'Takes `ms` milliseconds to finish (stops early when cancelled)', inputSchema: { ms: z.number().int().min(0) } },
    async ({ ms }, extra) => {
      await wait(ms, extra.signal);
      return { content: [{ type: 'text', text: `finished after ${ms} ms` }] };
    },
  );

  server.registerResource(
    'hello',
    'demo://hello',
    { description: 'A greeting, as a text resource', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'Hello from a statemcp resource.' }] }),
  );

  server.registerPrompt(
    'summarize',
    { description: 'Asks the model to summarize a topic', argsSchema: { topic: z.string().describe('What to summarize') } },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic} in three sentences.` } }] }),
  );

  server.registerTool(
    'ask_name',
    { description: 'Asks the user for their name, then greets them' },
    async (_args, extra) => {
      const answer = await extra.elicit(
        { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        { inputKey: 'user_name' },
      );
      return { content: [{ type: 'text', text: answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : 'Hello, stranger!' }] };
    },
  );

  server.registerTool(
    'add_tool',
    { description: 'Registers another tool named `name` (a tools list change)', inputSchema: { name: z.string() } },
    ({ name }) => {
      server.registerTool(name, { description: 'Added at run time' }, () => ({ content: [{ type: 'text', text: name }] }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );

  server.registerTool('end_listens', { description: 'Ends every listen stream gracefully (SubscriptionsListenResult)' }, async () => {
    const ended = server.server.subscriptions.live.length;
    await server.server.subscriptions.end();
    return { content: [{ type: 'text', text: `ended ${ended} listen stream(s)` }] };
  });

  return server;
}
