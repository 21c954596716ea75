/**
 * A tool server with zod schemas: typed arguments, a checked `outputSchema`, a tool error the
 * model can read (`isError`) and a protocol error for a call that cannot be served.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** The server: `divide` returns structured output; dividing by zero is a tool error. */
export function createToolServer(): McpServer {
  const server = new McpServer({ name: 'calculator', version: '1.0.0' });

  server.registerTool(
    'divide',
    {
      title: 'Divide',
      description: 'Divides a by b',
      inputSchema: { a: z.number(), b: z.number().describe('Must not be zero') },
      outputSchema: { quotient: z.number() },
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => {
      // A thrown Error becomes an `isError: true` result whose text the model sees.
      if (b === 0) throw new Error('Cannot divide by zero');
      return { content: [{ type: 'text', text: String(a / b) }], structuredContent: { quotient: a / b } };
    },
  );

  server.registerTool('lookup', { inputSchema: { key: z.string() } }, ({ key }) => {
    // A JsonRpcError is answered as a JSON-RPC error instead of a tool result.
    throw new JsonRpcError(-32602, `Unknown key: ${key}`);
  });

  return server;
}

/** Calls each tool once through a client and returns what came back. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = createToolServer();
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'tools-example', version: '1.0.0' });
  await client.connect(clientSide);

  for (const tool of await client.listAllTools()) log(`tool ${tool.name}: ${JSON.stringify(tool.inputSchema.properties)}`);

  const ok = await client.callTool({ name: 'divide', arguments: { a: 6, b: 3 } });
  log(`divide(6, 3): ${JSON.stringify(ok.structuredContent)}`);

  const toolError = await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
  log(`divide(1, 0): isError=${String(toolError.isError)} ${JSON.stringify(toolError.content[0])}`);

  const invalid = await client.callTool({ name: 'divide', arguments: { a: 'six', b: 3 } });
  log(`divide('six', 3): isError=${String(invalid.isError)}`);

  try {
    await client.callTool({ name: 'lookup', arguments: { key: 'missing' } });
  } catch (error) {
    log(`lookup: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }

  await client.close();
  await server.close();
}
