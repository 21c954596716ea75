import { Client, type Tool } from '@statemcp/client';
import { InMemoryTransport, Session } from '@statemcp/protocol';

/** Collects every tool at once, follows list changes, and joins the server to the caller's trace. */
export async function main(log: (...parts: unknown[]) => void = console.log): Promise<void> {
  // A tiny in-process server whose tool list grows, and which reports the trace it was called in.
  let tools: Tool[] = [{ name: 'first', inputSchema: { type: 'object' } }];
  const server = new Session({
    role: 'server',
    capabilities: () => ({ tools: { listChanged: true } }),
    onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'demo', version: '1.0.0' } }),
  });
  server.setRequestHandler('tools/list', (params) =>
    params.cursor === undefined ? { tools: tools.slice(0, 1), ...(tools.length > 1 ? { nextCursor: '1' } : {}) } : { tools: tools.slice(1) },
  );
  server.setRequestHandler('tools/call', (_params, ctx) => ({ content: [{ type: 'text', text: `trace ${ctx.traceContext?.traceparent ?? 'none'}` }] }));
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);

  let changed!: () => void;
  const refreshed = new Promise<void>((resolve) => (changed = resolve));
  const client = new Client(
    { name: 'conveniences', version: '1.0.0' },
    {
      // Keep the tool list fresh: one refetch per burst of list_changed notifications.
      listChanged: {
        tools: {
          debounceMs: 10,
          onChanged: (list) => {
            log('tools now:', list.map((tool) => tool.name).join(', '));
            changed();
          },
        },
      },
      // Where an OpenTelemetry user returns the active span's context (propagation.inject).
      traceContext: () => ({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }),
    },
  );
  await client.connect(clientSide);

  // Every page in one array, never more than 5 pages.
  log('tools:', (await client.listAllTools({}, { maxPages: 5 })).map((tool) => tool.name).join(', '));

  tools = [...tools, { name: 'second', inputSchema: { type: 'object' } }];
  await server.notify('notifications/tools/list_changed');
  await refreshed;

  const result = await client.callTool({ name: 'first' });
  log(result.content[0]?.type === 'text' ? result.content[0].text : result.content);
  // A per-call trace context wins over the provider; an invalid one is dropped, never sent.
  const untraced = await client.callTool({ name: 'first' }, { traceContext: { traceparent: 'not-a-traceparent' } });
  log(untraced.content[0]?.type === 'text' ? untraced.content[0].text : untraced.content);

  await client.close();
}
