/**
 * The MCP server both routes serve: `echo`, `count` (a progress notification per step) and
 * `add-tool` (a tool list change, heard on every session's GET stream).
 * One `McpServer` serves every session of a route.
 */
import { McpServer } from '@statemcp/server';

export function buildServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    async ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
  );
  server.registerTool(
    'count',
    { description: 'Counts to n, one progress step each', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    async ({ n }, extra) => {
      for (let step = 1; step <= Number(n); step += 1) await extra.sendProgress(step, Number(n));
      return { content: [{ type: 'text', text: `counted to ${String(n)}` }] };
    },
  );
  server.registerTool(
    'add-tool',
    { description: 'Registers a tool of this name: every session hears notifications/tools/list_changed', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    async ({ name }) => {
      server.registerTool(String(name), { description: 'Added at run time' }, async () => ({ content: [{ type: 'text', text: String(name) }] }));
      return { content: [{ type: 'text', text: `added ${String(name)}` }] };
    },
  );
  return server;
}
