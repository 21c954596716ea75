import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError, type AuthInfo, type Transport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** Two tools, one behind a scope: what alice sees before and after a step-up, in `era`. */
export async function main(era: 'legacy' | 'modern' = 'legacy', log: (line: string) => void = console.log): Promise<void> {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('read_notes', {}, (_args, extra) => ({ content: [{ type: 'text', text: `notes of ${extra.auth?.subject ?? 'nobody'}` }] }));
  server.registerTool('delete_notes', { requiredScopes: ['notes:write'] }, () => ({ content: [{ type: 'text', text: 'deleted' }] }));
  server.registerTool('diary', { visible: (viewer) => viewer.auth?.subject === 'bob' }, () => ({ content: [] }));
  // Listed for everyone; called without the scope, refused for a step-up (403 over HTTP).
  server.registerTool('archive_notes', { requiredScopes: ['notes:archive'], whenMissing: 'challenge' }, () => ({ content: [] }));

  // Over HTTP, createProtectedResource verifies the bearer token of each request; here the
  // in-memory server side stamps each message with alice's current token instead.
  let scopes = ['notes:read'];
  const token = (): AuthInfo => ({ token: 't', tokenType: 'Bearer', clientId: 'notes-app', subject: 'alice', scopes, claims: {} });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(signedIn(serverSide, token));

  const client = new Client({ name: 'alice', version: '1.0.0' }, { era });
  const changed = new Promise<void>((resolve) => client.onToolsListChanged(resolve));
  await client.connect(clientSide);
  const names = async (): Promise<string> => (await client.listTools()).tools.map((tool) => tool.name).join(', ');
  log(`tools: ${await names()}`);
  await client.callTool({ name: 'delete_notes' }).catch((error: unknown) => log(`delete_notes: ${error instanceof JsonRpcError ? error.code : String(error)}`));
  await client.callTool({ name: 'archive_notes' }).catch((error: unknown) => log(`archive_notes: ${error instanceof Error ? error.message : String(error)}`));

  scopes = ['notes:read', 'notes:write']; // a step-up: a new token with more scopes
  await client.callTool({ name: 'read_notes' });
  await changed;
  log(`after the step-up: ${await names()}`);
  await client.close();
}

/** The server side of an in-memory pair whose every message carries `authInfo()`. */
function signedIn(transport: Transport, authInfo: () => AuthInfo): Transport {
  return {
    start: (sink) =>
      transport.start({
        onMessage: (value, context) => sink.onMessage(value, { ...context, authInfo: authInfo() }),
        onClose: (info) => sink.onClose(info),
        onError: (error) => sink.onError?.(error),
      }),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
}
