// A plain statemcp stdio server run from the packages' built `dist` (no bundle), as users run it.
import { McpServer } from '@statemcp/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { z } from 'zod';

const server = new McpServer({ name: 'cold-start', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
let big;
server.registerTool('big', { description: 'Returns a text of N bytes', inputSchema: { bytes: z.number().int().nonnegative() } }, ({ bytes }) => {
  if (big?.length !== bytes) {
    const unit = 'quote " backslash \\ tab \t newline \n plain text ';
    big = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  }
  return { content: [{ type: 'text', text: big }] };
});
await server.connect(new StdioServerTransport());
