/** The benchmark server on the official SDK 1.x (`@modelcontextprotocol/sdk`). */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { BIG_TOOL, ECHO_TOOL, MANY_TOOLS, SLEEP_TOOL, STATS_TOOL, bigText, extraTool, serverStats, untilAborted, type ServerCounters } from '../spec.js';
import type { BenchServerOptions } from './statemcp.js';

export function createSdk1Server(options: BenchServerOptions = {}, counters: ServerCounters = { started: 0, aborted: 0 }): McpServer {
  const server = new McpServer({ name: 'bench-sdk1', version: '1.0.0' });
  server.registerTool(ECHO_TOOL, { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(BIG_TOOL, { description: 'Returns a text of N bytes', inputSchema: { bytes: z.number().int().nonnegative() } }, ({ bytes }) => ({
    content: [{ type: 'text', text: bigText(bytes) }],
  }));
  server.registerTool(SLEEP_TOOL, { description: 'Ends only when cancelled' }, async (extra) => {
    counters.started++;
    await untilAborted(extra.signal);
    counters.aborted++;
    return { content: [] };
  });
  server.registerTool(STATS_TOOL, { description: 'GC, then memory and counters' }, () => ({
    content: [{ type: 'text', text: JSON.stringify(serverStats(counters)) }],
  }));
  if (options.manyTools === true) {
    for (let i = 0; i < MANY_TOOLS; i++) {
      const { name, description } = extraTool(i);
      server.registerTool(name, { description, inputSchema: { query: z.string(), limit: z.number().int().optional() } }, ({ query }) => ({
        content: [{ type: 'text', text: query }],
      }));
    }
  }
  return server;
}
