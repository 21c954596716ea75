// A client and a server session over the in-memory transport: handshake, one request each
// way, progress, and a graceful close, with every connection transition printed.
import { InMemoryTransport, Session } from '@statemcp/protocol';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();

  const server = new Session({
    role: 'server',
    capabilities: () => ({ tools: {} }),
    onInitialize: (_params, version) => ({
      protocolVersion: version,
      capabilities: { tools: {} },
      serverInfo: { name: 'example-server', version: '1.0.0' },
    }),
  });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (params, ctx) => {
    await ctx.sendProgress(1, 2, 'halfway');
    await ctx.sendProgress(2, 2, 'done');
    return { content: [{ type: 'text', text: `called ${String(params.name)}` }] };
  });

  const client = new Session({ role: 'client', capabilities: () => ({}) });
  client.onTransition((to, from) => log(`client: ${from.kind} -> ${to.kind}`));

  await server.connect(serverSide);
  await client.connect(clientSide);
  const init = await client.initialize({ capabilities: {}, clientInfo: { name: 'example-client', version: '1.0.0' } });
  log(`negotiated ${init.protocolVersion} with ${init.serverInfo.name}`);

  const result = await client.request('tools/call', { name: 'demo', arguments: {} }, {
    timeoutMs: 5_000,
    onProgress: (p) => log(`progress ${p.progress}/${p.total ?? '?'} ${p.message ?? ''}`),
  });
  log(JSON.stringify(result));

  await client.close();
  log(`closed: ${client.closeInfo?.reason ?? 'unknown'}`);
}
