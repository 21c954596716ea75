/** The benchmark server on the official SDK 2.x (`@modelcontextprotocol/server`). */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BIG_TOOL, ECHO_TOOL, MANY_TOOLS, SLEEP_TOOL, STATS_TOOL, bigText, extraTool, serverStats, untilAborted, type ServerCounters } from '../spec.js';
import type { BenchServerOptions } from './statemcp.js';

export function createSdk2Server(options: BenchServerOptions = {}, counters: ServerCounters = { started: 0, aborted: 0 }): McpServer {
  const server = new McpServer({ name: 'bench-sdk2', version: '1.0.0' });
  server.registerTool(ECHO_TOOL, { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(BIG_TOOL, { description: 'Returns a text of N bytes', inputSchema: z.object({ bytes: z.number().int().nonnegative() }) }, ({ bytes }) => ({
    content: [{ type: 'text', text: bigText(bytes) }],
  }));
  server.registerTool(SLEEP_TOOL, { description: 'Ends only when cancelled' }, async (ctx) => {
    counters.started++;
    await untilAborted(signalOf(ctx));
    counters.aborted++;
    return { content: [] };
  });
  server.registerTool(STATS_TOOL, { description: 'GC, then memory and counters' }, () => ({
    content: [{ type: 'text', text: JSON.stringify(serverStats(counters)) }],
  }));
  if (options.manyTools === true) {
    for (let i = 0; i < MANY_TOOLS; i++) {
      const { name, description } = extraTool(i);
      server.registerTool(name, { description, inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }) }, ({ query }) => ({
        content: [{ type: 'text', text: query }],
      }));
    }
  }
  return server;
}

/** The abort signal of a 2.x handler context (`ctx.mcpReq.signal`, or `ctx.signal` in older shapes). */
function signalOf(ctx: unknown): AbortSignal {
  const c = ctx as { signal?: AbortSignal; mcpReq?: { signal?: AbortSignal } };
  const signal = c.mcpReq?.signal ?? c.signal;
  if (signal === undefined) throw new Error('no abort signal in the 2.x handler context');
  return signal;
}
