/**
 * Per-principal views in memory, both eras: who hears a list change once registrations carry
 * rules (an update that keeps its rule, one that replaces it, disable), hidden templates and
 * prompts refused as unknown (reads, completions), and the last item of a list removed still
 * announced on a 2026-07-28 listen stream (its capability stays declared once the list served).
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError, type AuthInfo, type Transport } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, viewerOf } from './index.js';
import { flush } from './test-harness.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function token(subject: string, scopes: string[] = []): AuthInfo {
  return { token: `${subject}-token`, tokenType: 'Bearer', clientId: 'app', subject, scopes, claims: {} };
}

/** The server side of an in-memory pair whose messages carry `auth` (what the HTTP transport attaches). */
function stamped(transport: Transport, auth: AuthInfo): Transport {
  return {
    start: (sink) =>
      transport.start({
        onMessage: (value, context) => sink.onMessage(value, { ...context, authInfo: auth }),
        onClose: (info) => sink.onClose(info),
      }),
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
  };
}

interface Listener {
  readonly client: Client;
  readonly heard: { count: number };
}

async function connectAs(server: McpServer, era: 'legacy' | 'modern', auth: AuthInfo): Promise<Listener> {
  const client = new Client({ name: auth.subject ?? 'anonymous', version: '1.0.0' }, { era });
  const heard = { count: 0 };
  client.onToolsListChanged(() => heard.count++);
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(stamped(serverSide, auth));
  await client.connect(clientSide);
  clients.push(client);
  return { client, heard };
}

async function code(request: Promise<unknown>): Promise<number | undefined> {
  return request.then(
    () => undefined,
    (error: unknown) => (error instanceof JsonRpcError ? error.code : undefined),
  );
}

describe.each(['legacy', 'modern'] as const)('per-principal list changes (%s era)', (era) => {
  it('tells only the viewers of a ruled tool about its update and disable; everyone when its rule is replaced', async () => {
    const server = new McpServer({ name: 'views', version: '1.0.0' });
    server.registerTool('public', {}, () => ({ content: [] }));
    const onlyAlice = { visible: (viewer: { auth?: AuthInfo | undefined }) => viewer.auth?.subject === 'alice' };
    const diary = server.registerTool('diary', onlyAlice, () => ({ content: [] }));
    const alice = await connectAs(server, era, token('alice'));
    const bob = await connectAs(server, era, token('bob'));

    diary.update({ ...onlyAlice, description: 'dear diary' });
    await flush();
    expect([alice.heard.count, bob.heard.count]).toEqual([1, 0]);
    diary.disable();
    await flush();
    expect([alice.heard.count, bob.heard.count]).toEqual([2, 0]);
    diary.enable();
    diary.update({ requiredScopes: ['diary:read'] });
    await flush();
    expect([alice.heard.count, bob.heard.count]).toEqual([3, 1]);
    expect((await alice.client.listTools()).tools.map((tool) => tool.name)).toEqual(['public']);
  });

  it('announces the removal of the last tool on a listen stream and a session alike', async () => {
    const server = new McpServer({ name: 'views', version: '1.0.0' });
    const only = server.registerTool('only', {}, () => ({ content: [] }));
    const alice = await connectAs(server, era, token('alice'));
    only.remove();
    await flush();
    expect(alice.heard.count).toBe(1);
    expect((await alice.client.listTools()).tools).toEqual([]);
  });

  it('refuses a hidden template, prompt and their completions as unknown', async () => {
    const server = new McpServer({ name: 'views', version: '1.0.0' });
    const admin = { requiredScopes: ['admin'] };
    server.registerResourceTemplate('report', 'reports://{id}', { ...admin, complete: { id: () => ['q1'] } }, (uri) => ({ contents: [{ uri, text: 'report' }] }));
    server.registerPrompt('audit', { ...admin, argsSchema: [{ name: 'year' }], complete: { year: () => ['2026'] } }, () => ({ messages: [] }));
    const reader = await connectAs(server, era, token('reader'));
    const boss = await connectAs(server, era, token('boss', ['admin']));

    expect((await reader.client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await boss.client.listResourceTemplates()).resourceTemplates.map((template) => template.name)).toEqual(['report']);
    expect(await code(reader.client.readResource({ uri: 'reports://q1' }))).toBe(await code(reader.client.readResource({ uri: 'nothing://here' })));
    expect((await boss.client.readResource({ uri: 'reports://q1' })).contents).toEqual([{ uri: 'reports://q1', text: 'report' }]);
    expect(await code(reader.client.getPrompt({ name: 'audit' }))).toBe(-32602);
    const completeYear = (client: Client) => client.complete({ ref: { type: 'ref/prompt', name: 'audit' }, argument: { name: 'year', value: '2' } });
    expect(await code(completeYear(reader.client))).toBe(-32602);
    expect((await completeYear(boss.client)).completion.values).toEqual(['2026']);
  });
});

it('viewerOf reads the scopes of an OAuth AuthInfo and none of anything else', () => {
  expect([...viewerOf(token('alice', ['a', 'b'])).scopes]).toEqual(['a', 'b']);
  expect(viewerOf({ user: 'x' })).toEqual({ authInfo: { user: 'x' }, auth: undefined, scopes: new Set() });
});
