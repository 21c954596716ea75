// The server of `http-client-ab.mjs` (issue 39 items 1, 2): the bench's statemcp HTTP fixture (one `McpServer`
// with `echo`, default options, a session per legacy client, none at 2026-07-28) without the bench's build,
// imported from the worktree it sits in. Prints `LISTENING <port>`; on stdin, `mark` starts a CPU window and
// `cpu` prints `CPU <µs>` (this process's user + system CPU since the mark). Ends when stdin closes.
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';
const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
const http = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
const listening = await http.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${listening.port}\n`);
let c0 = process.cpuUsage();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (line) => {
  if (line.startsWith('mark')) c0 = process.cpuUsage();
  else { const c = process.cpuUsage(c0); process.stdout.write(`CPU ${c.user + c.system}\n`); }
});
process.stdin.on('end', () => process.exit(0));
