// seq.mjs without @statemcp/client: the protocol's client Session on StdioClientTransport sends
// `tools/call echo` itself (`session.request`), so seq.mjs minus this is the Client's cost and
// this minus seq-transport.mjs the protocol's.   node seq-session.mjs CALLS [CONCURRENCY]
import { Session } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { timeCalls } from './seq-timing.mjs';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const transport = new StdioClientTransport({ command: process.execPath, args: [process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const session = new Session({ role: 'client', capabilities: () => ({}) });
await session.connect(transport);
await session.initialize({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
const params = () => ({ name: 'echo', arguments: { text: 'hello world' } });
const echo = () => session.request('tools/call', params());
console.log(await timeCalls(echo, transport.pid, calls, concurrency, 'session '));
await session.close();
