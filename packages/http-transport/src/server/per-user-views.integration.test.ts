/**
 * Per-user views over real HTTP on 127.0.0.1 (issue 35): two principals with bearer tokens of
 * different scopes against ONE `McpServer` behind `createProtectedResource` see different tool,
 * prompt and resource lists and get, for each other's items, exactly the error of an item that
 * does not exist — in a 2025-11-25 session and in the 2026-07-28 stateless era. A step-up (a
 * new token with more scopes, same principal) makes the new tool appear with a list_changed
 * notification to that user only, and so does a registration made for that user; the other
 * principal hears nothing (checked after a round trip). `serverFor` builds a server per principal.
 * One declaration on a registration (`requiredScopes` with `whenMissing: 'challenge'`) keeps the
 * item listed and refuses calls with 403 insufficient_scope until a step-up, as the deprecated
 * `toolScopes` still does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { AuthRequiredError, JsonRpcError } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createProtectedResource } from '../auth/protected-resource.js';
import { jwtVerifier } from '../auth/jwt-verifier.js';
import { ISSUER, NOW_MS, createTestIssuer, type TestIssuer } from '../auth/test-tokens.js';
import type { ScopePolicy } from '../auth/scope-policy.js';
import { HttpResponseError, StreamableHttpClientTransport } from '../client/index.js';
import type { SessionOpening, StreamableHttpServerOptions } from './server-options.js';
import { createStreamableHttpServer } from './streamable-http-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** The shared server: one public tool, one behind a scope, one for alice only; a scoped prompt and resource. */
function notesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('read_notes', {}, (_args, extra) => ({ content: [{ type: 'text', text: `notes for ${extra.auth?.subject ?? '?'}` }] }));
  server.registerTool('delete_notes', { requiredScopes: ['notes:write'] }, () => ({ content: [{ type: 'text', text: 'deleted' }] }));
  server.registerTool('alice_diary', { visible: (viewer) => viewer.auth?.subject === 'alice' }, () => ({ content: [{ type: 'text', text: 'dear diary' }] }));
  server.registerPrompt('rewrite_notes', { requiredScopes: ['notes:write'] }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'rewrite' } }] }));
  server.registerResource('audit', 'notes://audit', { requiredScopes: ['notes:write'] }, (uri) => ({ contents: [{ uri, text: 'audit log' }] }));
  return server;
}

interface Served {
  readonly url: URL;
  readonly issuer: TestIssuer;
  readonly openings: SessionOpening[];
}

/** Serves `mcp` behind `createProtectedResource` on 127.0.0.1 (its URL, the tokens' audience, known first). */
async function serve(mcp: Pick<StreamableHttpServerOptions, 'connect' | 'serverFor'>, scopes: ScopePolicy = {}): Promise<Served> {
  const node = createServer();
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`);
  const issuer = await createTestIssuer(url.href);
  const openings: SessionOpening[] = [];
  const authorization = createProtectedResource({
    resource: url,
    authorizationServers: [ISSUER],
    verifier: jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: url.href, now: () => NOW_MS }),
    now: () => NOW_MS,
    ...scopes,
  });
  const { connect, serverFor } = mcp;
  const http = createStreamableHttpServer({
    ...(connect === undefined ? {} : { connect: (transport, opening) => (openings.push(opening), connect(transport, opening)) }),
    ...(serverFor === undefined ? {} : { serverFor: (opening) => (openings.push(opening), serverFor(opening)) }),
    authorization,
    path: '/mcp',
  });
  node.on('request', (req, res) => void http.handleNodeRequest(req, res));
  cleanups.push(async () => {
    await http.close();
    await new Promise<void>((resolve) => {
      node.close(() => resolve());
      node.closeAllConnections();
    });
  });
  return { url, issuer, openings };
}

/** Counts the calls of a listener; `next()` resolves at the next one. */
class Heard {
  count = 0;
  #waiters: (() => void)[] = [];
  readonly hear = (): void => {
    this.count++;
    for (const resolve of this.#waiters.splice(0)) resolve();
  };
  next(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/**
 * A statemcp client whose bearer token can change between requests (a step-up). `heard` listens
 * to tools/list_changed from before `connect()`, so in the 2026-07-28 era the client's own listen
 * stream is acknowledged before `connect()` resolves.
 */
async function signIn(url: URL, era: 'legacy' | 'modern', token: { current: string }, heard?: Heard): Promise<Client> {
  const client = new Client({ name: `views-${era}`, version: '1.0.0' }, { era });
  if (heard !== undefined) client.onToolsListChanged(heard.hear);
  await client.connect(new StreamableHttpClientTransport(url, { headers: () => ({ authorization: `Bearer ${token.current}` }) }));
  cleanups.push(() => client.close());
  return client;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

/** The error a request fails with (its code and message), to compare a hidden item with a missing one. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await request.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof JsonRpcError)) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe.each(['legacy', 'modern'] as const)('per-user views over HTTP (%s era)', (era) => {
  it('shows each principal its own lists and answers the other one’s items as unknown', async () => {
    const shared = notesServer();
    const { url, issuer } = await serve({ connect: (transport) => shared.connect(transport) });
    const alice = await signIn(url, era, { current: await issuer.token({ sub: 'alice', scope: 'notes:read' }) });
    const bob = await signIn(url, era, { current: await issuer.token({ sub: 'bob', scope: 'notes:read notes:write' }) });

    expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary']);
    expect(await toolNames(bob)).toEqual(['read_notes', 'delete_notes']);
    expect((await alice.listPrompts()).prompts).toEqual([]);
    expect((await bob.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['rewrite_notes']);
    expect((await alice.listResources()).resources).toEqual([]);
    expect((await bob.listResources()).resources.map((resource) => resource.uri)).toEqual(['notes://audit']);

    // A hidden item fails exactly as one that was never registered (no probing for others' items).
    const unknownTool = await failure(alice.callTool({ name: 'no_such_tool' }));
    expect(unknownTool.code).toBe(-32602);
    expect(await failure(alice.callTool({ name: 'delete_notes' }))).toEqual({ ...unknownTool, message: unknownTool.message.replace('no_such_tool', 'delete_notes') });
    expect(await failure(bob.callTool({ name: 'alice_diary' }))).toEqual({ ...unknownTool, message: unknownTool.message.replace('no_such_tool', 'alice_diary') });
    const unknownPrompt = await failure(alice.getPrompt({ name: 'no_such_prompt' }));
    expect(unknownPrompt.code).toBe(-32602);
    expect((await failure(alice.getPrompt({ name: 'rewrite_notes' }))).code).toBe(unknownPrompt.code);
    const unknownResource = await failure(alice.readResource({ uri: 'notes://nothing' }));
    expect(unknownResource.code).toBe(era === 'legacy' ? -32002 : unknownResource.code);
    expect((await failure(alice.readResource({ uri: 'notes://audit' }))).code).toBe(unknownResource.code);

    expect((await bob.callTool({ name: 'delete_notes' })).content).toEqual([{ type: 'text', text: 'deleted' }]);
    expect((await alice.callTool({ name: 'alice_diary' })).content).toEqual([{ type: 'text', text: 'dear diary' }]);
    expect((await bob.readResource({ uri: 'notes://audit' })).contents).toEqual([{ uri: 'notes://audit', text: 'audit log' }]);
  });

  it('a step-up shows the new tool with list_changed to that user only; a registration for one user tells that user only', async () => {
    const shared = notesServer();
    const { url, issuer } = await serve({ connect: (transport) => shared.connect(transport) });
    const aliceToken = { current: await issuer.token({ sub: 'alice', scope: 'notes:read' }) };
    const heard = { alice: new Heard(), bob: new Heard() };
    const alice = await signIn(url, era, aliceToken, heard.alice);
    const bob = await signIn(url, era, { current: await issuer.token({ sub: 'bob', scope: 'notes:read' }) }, heard.bob);
    expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary']);
    expect(await toolNames(bob)).toEqual(['read_notes']);

    const aliceHears = heard.alice.next();
    aliceToken.current = await issuer.token({ sub: 'alice', scope: 'notes:read notes:write' });
    expect((await alice.callTool({ name: 'read_notes' })).content).toEqual([{ type: 'text', text: 'notes for alice' }]);
    await aliceHears;
    expect(await toolNames(alice)).toEqual(['read_notes', 'delete_notes', 'alice_diary']);
    expect(await toolNames(bob)).toEqual(['read_notes']);
    expect([heard.alice.count, heard.bob.count]).toEqual([1, 0]);

    const bobHears = heard.bob.next();
    shared.registerTool('bob_inbox', { visible: (viewer) => viewer.auth?.subject === 'bob' }, () => ({ content: [] }));
    await bobHears;
    await alice.callTool({ name: 'read_notes' });
    expect(await toolNames(alice)).toEqual(['read_notes', 'delete_notes', 'alice_diary']);
    expect(await toolNames(bob)).toEqual(['read_notes', 'bob_inbox']);
    expect([heard.alice.count, heard.bob.count]).toEqual([1, 1]);
  });

  it('one declaration challenges instead of hiding: listed, 403 insufficient_scope until a step-up, as toolScopes', async () => {
    const shared = notesServer();
    shared.registerTool('archive_notes', { requiredScopes: ['notes:archive'], whenMissing: 'challenge' }, () => ({ content: [{ type: 'text', text: 'archived' }] }));
    shared.registerTool('purge_notes', {}, () => ({ content: [{ type: 'text', text: 'purged' }] }));
    const { url, issuer } = await serve({ connect: (transport) => shared.connect(transport) }, { registrations: shared.scopeChallenges, toolScopes: { purge_notes: ['notes:admin'] } });
    const token = { current: await issuer.token({ sub: 'alice', scope: 'notes:read' }) };
    const alice = await signIn(url, era, token);
    expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary', 'archive_notes', 'purge_notes']);
    for (const [name, scope] of [
      ['archive_notes', 'notes:archive'],
      ['purge_notes', 'notes:admin'],
    ] as const) {
      const refused: unknown = await alice.callTool({ name }).then(
        () => undefined,
        (error: unknown) => error,
      );
      const chain: unknown[] = [];
      for (let error = refused; error instanceof Error; error = error.cause) chain.push(error);
      expect(chain.some((error) => error instanceof AuthRequiredError)).toBe(true);
      const http = chain.find((error): error is HttpResponseError => error instanceof HttpResponseError);
      expect(http?.status).toBe(403);
      expect(http?.wwwAuthenticate).toMatch(new RegExp(`error="insufficient_scope".*scope="${scope}"`));
    }
    token.current = await issuer.token({ sub: 'alice', scope: 'notes:read notes:archive notes:admin' });
    expect((await alice.callTool({ name: 'archive_notes' })).content).toEqual([{ type: 'text', text: 'archived' }]);
    expect((await alice.callTool({ name: 'purge_notes' })).content).toEqual([{ type: 'text', text: 'purged' }]);

    // Without `registrations` the server itself refuses, naming the scope (the item stays listed).
    const unwired = await serve({ connect: (transport) => shared.connect(transport) });
    const bob = await signIn(unwired.url, era, { current: await unwired.issuer.token({ sub: 'bob', scope: 'notes:read' }) });
    expect(await toolNames(bob)).toContain('archive_notes');
    expect(await failure(bob.callTool({ name: 'archive_notes' }))).toEqual({ code: -32602, message: 'Tool archive_notes needs scope notes:archive' });
  });

  it('serverFor builds a server per principal from who opened the session and the request', async () => {
    const { url, issuer, openings } = await serve({
      serverFor: ({ authInfo, http }) => {
        const server = new McpServer({ name: 'per-principal', version: '1.0.0' });
        const subject = (authInfo as { subject?: string }).subject ?? '?';
        server.registerTool(`hello_${subject}`, {}, () => ({ content: [{ type: 'text', text: `${http?.method ?? '?'} ${subject}` }] }));
        return server;
      },
    });
    const alice = await signIn(url, era, { current: await issuer.token({ sub: 'alice' }) });
    const bob = await signIn(url, era, { current: await issuer.token({ sub: 'bob' }) });
    expect(await toolNames(alice)).toEqual(['hello_alice']);
    expect(await toolNames(bob)).toEqual(['hello_bob']);
    expect((await alice.callTool({ name: 'hello_alice' })).content).toEqual([{ type: 'text', text: 'POST alice' }]);
    expect((await failure(alice.callTool({ name: 'hello_bob' }))).code).toBe(-32602);
    expect(openings.every((opening) => opening.http?.method === 'POST')).toBe(true);
    expect(new Set(openings.map((opening) => opening.principal))).toEqual(new Set([`${ISSUER} alice`, `${ISSUER} bob`]));
  });
});
