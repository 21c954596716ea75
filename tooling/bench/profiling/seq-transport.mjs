// The middle of seq.mjs and seq-raw.mjs: statemcp's StdioClientTransport against server-dist.mjs
// with no Session and no Client above it (a map of ids to resolving functions, the raw floor's
// client logic), so the client CPU it prints is the transport's and Node's; seq.mjs minus this
// is what the protocol and the client cost.   node seq-transport.mjs CALLS [CONCURRENCY]
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { timeCalls } from './seq-timing.mjs';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const transport = new StdioClientTransport({ command: process.execPath, args: [process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const waiting = new Map();
await transport.start({
  onMessage(message) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  },
  onClose() {},
});
let id = 0;
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const n = ++id;
    waiting.set(n, resolve);
    transport.send({ jsonrpc: '2.0', id: n, method, params }).catch(reject);
  });
await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
const echo = () => request('tools/call', { name: 'echo', arguments: { text: 'hello world' } });
console.log(await timeCalls(echo, transport.pid, calls, concurrency, 'transport only '));
await transport.close();
