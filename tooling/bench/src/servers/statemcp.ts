/** The benchmark server on statemcp (`@statemcp/server`). One `McpServer` serves every connection. */
import { McpServer } from '@statemcp/server';
import { bigShape, echoShape, listShape } from './tool-shapes.js';
import { BIG_TOOL, ECHO_TOOL, MANY_TOOLS, SLEEP_TOOL, STATS_TOOL, bigText, extraTool, serverStats, untilAborted, type ServerCounters } from '../spec.js';

export interface BenchServerOptions {
  /** Register the 100 extra tools of the `tools/list` workload. */
  readonly manyTools?: boolean;
}

export function createStatemcpServer(options: BenchServerOptions = {}): { server: McpServer; counters: ServerCounters } {
  const counters: ServerCounters = { started: 0, aborted: 0 };
  const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
  server.registerTool(ECHO_TOOL, { description: 'Echoes its text', inputSchema: echoShape() }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(BIG_TOOL, { description: 'Returns a text of N bytes', inputSchema: bigShape() }, ({ bytes }) => ({
    content: [{ type: 'text', text: bigText(bytes) }],
  }));
  server.registerTool(SLEEP_TOOL, { description: 'Ends only when cancelled' }, async (_args, extra) => {
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
      server.registerTool(name, { description, inputSchema: listShape() }, ({ query }) => ({
        content: [{ type: 'text', text: query }],
      }));
    }
  }
  return { server, counters };
}
