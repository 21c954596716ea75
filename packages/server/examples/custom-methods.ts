import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

const Search = {
  params: z.object({ query: z.string(), limit: z.number().int().default(10) }),
  result: z.object({ hits: z.array(z.string()) }),
};
const Confirm = { params: z.object({ question: z.string() }), result: z.object({ ok: z.boolean() }) };

/** A vendor extension both ways: the client calls `com.example/search`, the server asks `com.example/confirm`. */
export async function main(): Promise<string[]> {
  const lines: string[] = [];
  const server = new McpServer({ name: 'search-server', version: '1.0.0' });
  // Declared for you as capabilities.experimental['com.example/search'] (extensions[…] from 2026-07-28).
  server.method('com.example/search', Search, async ({ query, limit }, context) => {
    const { ok } = await context.connection.request('com.example/confirm', { question: `search for ${query}?` }, { ...Confirm, relatedRequestId: context.requestId });
    return { hits: ok ? [`${query} #1`, `${query} #2`].slice(0, limit) : [] };
  });
  server.notification('com.example/seen', { params: z.object({ hit: z.string() }) }, ({ hit }) => void lines.push(`server saw ${hit}`));

  // The handshake era: a server sends requests of its own (com.example/confirm) only on a session.
  const client = new Client({ name: 'search-client', version: '1.0.0' }, { era: 'legacy' });
  client.method('com.example/confirm', Confirm, ({ question }) => {
    lines.push(`client asked: ${question}`);
    return { ok: true };
  });

  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  await client.connect(clientSide);

  const { hits } = await client.request('com.example/search', { query: 'mcp', limit: 1 }, { ...Search, timeoutMs: 5_000 });
  lines.push(`hits: ${hits.join(', ')}`);
  await client.notify('com.example/seen', { hit: hits[0] ?? '' });
  await client.request('tools/list').catch((error: Error) => lines.push(`refused: ${error.name}`));
  await client.close();
  return lines;
}
