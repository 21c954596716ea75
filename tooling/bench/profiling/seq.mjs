// tools/call echo over stdio, sequential or N in flight, statemcp's client from dist against
// server-dist.mjs; prints client and server CPU µs/call.   node seq.mjs CALLS [CONCURRENCY]
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { timeCalls } from './seq-timing.mjs';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const extra = (process.env.CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
await client.connect(transport);
const echo = () => client.callTool({ name: 'echo', arguments: { text: 'hello world' } });
console.log(await timeCalls(echo, transport.pid, calls, concurrency));
await client.close();
