/**
 * Errors: every failure is a typed error with a stable `code` and a `category`, so code can
 * tell a timeout from a cancellation, a capability the server lacks, or the server's own error.
 */
import { CapabilityNotSupportedError, Client, RequestTimeoutError } from '@statemcp/client';
import { categoryOf, InMemoryTransport, JsonRpcError } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** What a caller would log for any error. */
export function explain(error: unknown): string {
  const category = categoryOf(error);
  if (error instanceof JsonRpcError) return `${category}: server answered ${error.code} ${error.message}`;
  if (error instanceof CapabilityNotSupportedError) return `${category}: ${error.code} — nothing was sent`;
  if (error instanceof RequestTimeoutError) return `${category}: ${error.code} after the timeout`;
  return `${category}: ${error instanceof Error ? error.message : String(error)}`;
}

/** Provokes a server error, a missing capability and a timeout, and explains each. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = new McpServer({ name: 'errors', version: '1.0.0' });
  server.registerTool('slow', {}, (_args, extra) => new Promise((resolve) => {
    extra.signal.addEventListener('abort', () => resolve({ content: [] }), { once: true });
  }));
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'errors-client', version: '1.0.0' });
  await client.connect(clientSide);

  const attempts: Array<[string, () => Promise<unknown>]> = [
    ['unknown tool', () => client.callTool({ name: 'nope' })],
    ['prompts on a server without prompts', () => client.listPrompts()],
    ['a call past its timeout', () => client.callTool({ name: 'slow' }, { timeoutMs: 20 })],
  ];
  for (const [label, attempt] of attempts) {
    try {
      await attempt();
      log(`${label}: succeeded`);
    } catch (error) {
      log(`${label}: ${explain(error)}`);
    }
  }

  await client.close();
  await server.close();
}
