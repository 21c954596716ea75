// A Streamable HTTP server on 127.0.0.1 with resumable SSE streams. Each HTTP session gets its
// own protocol session in the server role (with @statemcp/server: `mcpServer.connect(transport)`).
// A few raw requests then show the wire: initialize → session id, a tool call as SSE, DELETE.
import { Session } from '@statemcp/protocol';
import { createStreamableHttpServer, InMemoryEventStore } from '../src/server/index.js';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const mcp = createStreamableHttpServer({
    eventStore: new InMemoryEventStore({ maxEventsPerStream: 500, maxStreams: 200 }),
    sessionIdleTimeoutMs: 10 * 60_000,
    connect: async (transport) => {
      const session = new Session({
        role: 'server',
        capabilities: () => ({ tools: {}, logging: {} }),
        onInitialize: (_params, version) => ({
          protocolVersion: version,
          capabilities: { tools: {}, logging: {} },
          serverInfo: { name: 'example-http-server', version: '1.0.0' },
        }),
      });
      session.setRequestHandler('tools/call', async (params, ctx) => {
        await ctx.sendNotification('notifications/message', { level: 'info', data: 'working' });
        return { content: [{ type: 'text', text: `hello from ${String(params.name)}` }] };
      });
      await session.connect(transport);
    },
  });
  const http = await mcp.listen({ port: 0 }); // host defaults to 127.0.0.1
  log(`listening on ${http.url.origin}`);

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(http.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl-like', version: '1' } },
  });
  const sessionId = init.headers.get('mcp-session-id') ?? '';
  log(`initialize: ${init.status} ${init.headers.get('content-type') ?? ''}, session id issued: ${sessionId !== ''}`);
  const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  await init.text();
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);

  const call = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: {} } }, session);
  log(`tools/call: ${call.status} ${call.headers.get('content-type') ?? ''}`);
  for (const block of (await call.text()).split('\n\n')) {
    const data = block.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
    if (data !== undefined && data !== '') log(`  event: ${data}`);
  }

  const foreign = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { ...session, origin: 'https://evil.example' });
  log(`foreign Origin: ${foreign.status}`);

  const end = await fetch(http.url, { method: 'DELETE', headers: session });
  const after = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, session);
  log(`DELETE: ${end.status}, then: ${after.status}`);
  await http.close();
}
