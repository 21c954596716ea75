/**
 * Per-user views through a 3-instance cluster over one real Redis (issue 35): every request of
 * a client goes to the next instance in turn (a round-robin load balancer in the client's
 * `fetch`), so sessions are relayed to their owner and 2026-07-28 requests are served wherever
 * they land. Two principals with different scopes see different lists and get the errors of
 * unknown items for each other's, in both eras; a step-up on a 2025-11-25 session makes the new
 * tool appear with a list_changed to that user only; a registration for one user (made on every
 * instance) reaches that user's listen stream only. Views are computed per request from the
 * token each instance verifies, never per instance.
 */
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { createProtectedResource, type TokenVerifier } from '@statemcp/http-transport/auth';
import { JsonRpcError } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { describe, expect, it } from 'vitest';

import { connectRedisStores } from './redis-stores.js';
import { redisForFile } from './test-redis-file.js';
import { uniquePrefix } from './test-redis-server.js';

/** The resource the load balancer fronts: the audience of every token, whichever instance checks it. */
const RESOURCE = 'https://notes.example.com/mcp';
const ISSUER = 'https://id.example.com';

/** Opaque tokens and what they grant (a verifier like an introspection endpoint's answer). */
const TOKENS: Readonly<Record<string, { subject: string; scopes: string[] }>> = {
  'alice-read': { subject: 'alice', scopes: ['notes:read'] },
  'alice-write': { subject: 'alice', scopes: ['notes:read', 'notes:write'] },
  'bob-read': { subject: 'bob', scopes: ['notes:read'] },
  'bob-write': { subject: 'bob', scopes: ['notes:read', 'notes:write'] },
};

const verifier: TokenVerifier = {
  verify: (token) => {
    const grant = TOKENS[token];
    if (grant === undefined) return Promise.reject(new Error('unknown token'));
    return Promise.resolve({ clientId: 'notes-app', scopes: grant.scopes, subject: grant.subject, issuer: ISSUER, resource: new URL(RESOURCE), claims: { sub: grant.subject } });
  },
};

const redis = redisForFile();
const { cleanups } = redis;


interface Instance {
  readonly mcp: McpServer;
  readonly listening: ListeningServer;
}

/** One instance: the same registrations, its own `McpServer`, sessions and buses in Redis. */
async function instance(id: string, prefix: string): Promise<Instance> {
  const stores = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
  const mcp = new McpServer({ name: `notes-${id}`, version: '1.0.0' }, { cluster: { instanceId: id, bus: stores.bus, subscriptions: stores.subscriptions } });
  mcp.registerTool('read_notes', {}, (_args, extra) => ({ content: [{ type: 'text', text: `notes for ${extra.auth?.subject ?? '?'} on ${id}` }] }));
  mcp.registerTool('delete_notes', { requiredScopes: ['notes:write'] }, () => ({ content: [{ type: 'text', text: 'deleted' }] }));
  mcp.registerTool('alice_diary', { visible: (viewer) => viewer.auth?.subject === 'alice' }, () => ({ content: [{ type: 'text', text: 'dear diary' }] }));
  mcp.registerResource('audit', 'notes://audit', { requiredScopes: ['notes:write'] }, (uri) => ({ contents: [{ uri, text: 'audit log' }] }));
  const http = createStreamableHttpServer({
    connect: (transport) => mcp.connect(transport),
    authorization: createProtectedResource({ resource: RESOURCE, authorizationServers: [ISSUER], verifier }),
    eventStore: stores.events,
    cluster: { instanceId: id, sessions: stores.sessions, bus: stores.bus },
  });
  const listening = await http.listen();
  cleanups.push(async () => {
    await listening.close();
    await stores.close();
  });
  return { mcp, listening };
}

async function cluster(): Promise<Instance[]> {
  const prefix = uniquePrefix();
  return Promise.all(['a', 'b', 'c'].map((id) => instance(id, prefix)));
}

/** Sends each HTTP request of a client to the next instance in turn. */
function roundRobin(instances: readonly Instance[]): typeof fetch {
  let next = 0;
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : input.toString());
    const { url } = (instances[next++ % instances.length] as Instance).listening;
    target.host = url.host;
    return fetch(target, init);
  };
}

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

/** Sends the listen stream (`subscriptions/listen`) to `listenOn`, every other request to `requestsTo.current`. */
function pinned(listenOn: Instance, requestsTo: { current: Instance }): typeof fetch {
  return (input, init) => {
    const target = new URL(input instanceof Request ? input.url : input.toString());
    const listens = typeof init?.body === 'string' && init.body.includes('"subscriptions/listen"');
    target.host = (listens ? listenOn : requestsTo.current).listening.url.host;

    return fetch(target, init);
  };
}

async function signIn(instances: readonly Instance[], era: 'legacy' | 'modern', token: { current: string }, heard?: Heard, route: typeof fetch = roundRobin(instances)): Promise<Client> {
  const client = new Client({ name: `cluster-views-${era}`, version: '1.0.0' }, { era });
  if (heard !== undefined) client.onToolsListChanged(heard.hear);
  const transport = new StreamableHttpClientTransport((instances[0] as Instance).listening.url, { fetch: route, headers: () => ({ authorization: `Bearer ${token.current}` }) });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

async function errorCode(request: Promise<unknown>): Promise<number | undefined> {
  return request.then(
    () => undefined,
    (error: unknown) => (error instanceof JsonRpcError ? error.code : undefined),
  );
}

describe.each(['legacy', 'modern'] as const)('per-user views through a 3-instance cluster (%s era)', (era) => {
  it('gives each principal its own lists and refuses the other one’s items as unknown on every instance', async () => {
    const instances = await cluster();
    const alice = await signIn(instances, era, { current: 'alice-read' });
    const bob = await signIn(instances, era, { current: 'bob-write' });
    for (let round = 0; round < 3; round++) {
      expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary']);
      expect(await toolNames(bob)).toEqual(['read_notes', 'delete_notes']);
    }
    const unknown = await errorCode(alice.callTool({ name: 'no_such_tool' }));
    expect(unknown).toBe(-32602);
    expect(await errorCode(alice.callTool({ name: 'delete_notes' }))).toBe(unknown);
    expect(await errorCode(bob.callTool({ name: 'alice_diary' }))).toBe(unknown);
    expect(await errorCode(alice.readResource({ uri: 'notes://audit' }))).toBe(await errorCode(alice.readResource({ uri: 'notes://none' })));
    expect((await bob.callTool({ name: 'delete_notes' })).content).toEqual([{ type: 'text', text: 'deleted' }]);
  });
});

describe('list changes per principal through a 3-instance cluster', () => {
  it('a step-up on a 2025-11-25 session shows the new tool with list_changed to that user only', async () => {
    const instances = await cluster();
    const aliceToken = { current: 'alice-read' };
    const heard = { alice: new Heard(), bob: new Heard() };
    const alice = await signIn(instances, 'legacy', aliceToken, heard.alice);
    const bob = await signIn(instances, 'legacy', { current: 'bob-write' }, heard.bob);
    expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary']);

    const aliceHears = heard.alice.next();
    aliceToken.current = 'alice-write';
    await alice.callTool({ name: 'read_notes' });
    await aliceHears;
    expect(await toolNames(alice)).toEqual(['read_notes', 'delete_notes', 'alice_diary']);
    await bob.callTool({ name: 'read_notes' });
    expect([heard.alice.count, heard.bob.count]).toEqual([1, 0]);
  });

  it('a registration for one user, made on every instance, reaches that user’s listen stream only (2026-07-28)', async () => {
    const instances = await cluster();
    const heard = { alice: new Heard(), bob: new Heard() };
    const alice = await signIn(instances, 'modern', { current: 'alice-read' }, heard.alice);
    const bob = await signIn(instances, 'modern', { current: 'bob-write' }, heard.bob);

    const bobHears = heard.bob.next();
    for (const { mcp } of instances) mcp.registerTool('bob_inbox', { visible: (viewer) => viewer.auth?.subject === 'bob' }, () => ({ content: [] }));
    await bobHears;
    await alice.callTool({ name: 'read_notes' });
    expect(await toolNames(bob)).toEqual(['read_notes', 'delete_notes', 'bob_inbox']);
    expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary']);
    expect([heard.alice.count, heard.bob.count]).toEqual([0, 1]);
  });

  it('a step-up through one instance reaches the principal’s listen stream held on another, and nobody else’s (2026-07-28)', async () => {
    const instances = await cluster();
    const [a, b] = instances as [Instance, Instance, Instance];
    // Every request goes to A; the listen streams are held on B.
    const requestsTo = { current: a };
    const tokens = { alice: { current: 'alice-read' }, bob: { current: 'bob-read' } };
    const heard = { alice: new Heard(), bob: new Heard() };
    const alice = await signIn(instances, 'modern', tokens.alice, heard.alice, pinned(b, requestsTo));
    const bob = await signIn(instances, 'modern', tokens.bob, heard.bob, pinned(b, requestsTo));
    expect(await toolNames(alice)).toEqual(['read_notes', 'alice_diary']);
    expect(await toolNames(bob)).toEqual(['read_notes']);

    const aliceHears = heard.alice.next();
    tokens.alice.current = 'alice-write';
    await alice.callTool({ name: 'read_notes' });
    await aliceHears;
    expect(await toolNames(alice)).toEqual(['read_notes', 'delete_notes', 'alice_diary']);

    const bobHears = heard.bob.next();
    tokens.bob.current = 'bob-write';
    await bob.callTool({ name: 'read_notes' });
    await bobHears;

    // The new token reaching B itself announces nothing again.
    requestsTo.current = b;
    await alice.callTool({ name: 'read_notes' });
    await bob.callTool({ name: 'read_notes' });

    // A round trip on each stream: a registration everyone sees is announced after anything the
    // step-ups could have sent, so the counts below are final.
    const bothHear = [heard.alice.next(), heard.bob.next()];
    for (const { mcp } of instances) mcp.registerTool('shared_drafts', {}, () => ({ content: [] }));
    await Promise.all(bothHear);
    expect([heard.alice.count, heard.bob.count]).toEqual([2, 2]);
  });
});
