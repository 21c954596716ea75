/**
 * The modern era on the client (MCP 2026-07-28 basic/versioning §Backward Compatibility, MCP
 * 2026-07-28 basic/index): discovery, fallback, per-request `_meta`, `resultType`, MRTR rounds.
 */
import { describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '../errors/errors.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { InspectEvent } from '../observability/events.js';
import { InMemoryTransport } from '../transport/in-memory.js';
import { SimulatedClock } from './clock.js';
import type { SessionOptions } from './options.js';
import { Session } from './session.js';
import { flush, rawPeer } from './test-support.js';

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'modern-client', version: '1.0.0' };
const CAPS = { elicitation: {}, sampling: {} };
const DISCOVERED = {
  resultType: 'complete',
  supportedVersions: [MODERN],
  capabilities: { tools: {}, prompts: {}, resources: {} },
  instructions: 'be nice',
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raw-modern', version: '2' } },
};

async function setup(client: Partial<SessionOptions> = {}, transport: { answersUntilClosed?: boolean } = {}) {
  const clock = new SimulatedClock();
  const events: InspectEvent[] = [];
  const [pairEnd, serverEnd] = InMemoryTransport.createPair();
  // A transport like stdio's, whose peer answers or exits, when asked.
  const clientEnd = transport.answersUntilClosed === true ? Object.assign(pairEnd, { answersUntilClosed: true }) : pairEnd;
  const session = new Session({
    role: 'client',
    clock,
    capabilities: () => CAPS,
    supportedVersions: ['2025-06-18', '2025-11-25', MODERN],
    inspect: (event) => events.push(event),
    ...client,
  });
  const peer = await rawPeer(serverEnd);
  await session.connect(clientEnd);
  const last = (method: string): JsonObject => {
    const found = peer.sent(method).at(-1);
    if (found === undefined) throw new Error(`no ${method} arrived`);
    return found;
  };
  const reply = async (request: JsonObject, body: { result: JsonObject } | { error: JsonObject }): Promise<void> => {
    await peer.send({ jsonrpc: '2.0', id: request.id, ...body });
    await flush();
  };
  return { clock, session, peer, events, last, reply };
}

async function modernSession(client: Partial<SessionOptions> = {}) {
  const t = await setup(client);
  const agreed = t.session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
  await flush();
  await t.reply(t.last('server/discover'), { result: DISCOVERED });
  await agreed;
  return t;
}

const metaOf = (message: JsonObject): JsonObject => (message.params as JsonObject)._meta as JsonObject;

describe('Session (modern era, client)', () => {
  describe('#negotiate', () => {
    it('discovers a modern server and is Operating at 2026-07-28 with no handshake (MCP 2026-07-28 server/discover)', async () => {
      const { session, peer, last, reply, events } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      expect(session.state).toMatchObject({ kind: 'initializing', phase: 'discovering' });
      const discover = last('server/discover');
      expect(metaOf(discover)).toEqual({
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': CAPS,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      });
      await reply(discover, { result: DISCOVERED });
      await expect(agreed).resolves.toMatchObject({ era: 'modern', result: { supportedVersions: [MODERN] } });
      expect(session.state).toMatchObject({ kind: 'operating', version: MODERN });
      expect(session.peer).toEqual({ capabilities: DISCOVERED.capabilities, info: { name: 'raw-modern', version: '2' }, instructions: 'be nice' });
      expect(peer.sent('initialize')).toEqual([]);
      expect(peer.sent('notifications/initialized')).toEqual([]);
      const kinds = events.flatMap((event) => (event.type === 'session.transition' ? [event.to] : []));
      expect(kinds).toEqual(['initializing', 'operating']);
    });

    it('puts the _meta on every later request in one place, with the progress token when asked (MCP 2026-07-28 basic/index §_meta)', async () => {
      const { session, last } = await modernSession();
      void session.request('tools/list', { _meta: { 'com.example/trace': 'x' } }, { onProgress: () => undefined });
      await flush();
      expect(metaOf(last('tools/list'))).toEqual({
        'com.example/trace': 'x',
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': CAPS,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        progressToken: expect.any(Number) as number,
      });
    });

    it('states its identity in one sealed _meta shared by every request that adds nothing to it, made again when the capabilities change', async () => {
      let capabilities: JsonObject = CAPS;
      const { session, last } = await modernSession({ capabilities: () => capabilities });
      void session.request('tools/list', {});
      void session.request('tools/list', {});
      await flush();
      const first = metaOf(last('tools/list'));
      void session.request('tools/list', {});
      await flush();
      // The in-memory transport hands the sealed _meta over as it is: the same frozen object each time.
      expect(metaOf(last('tools/list'))).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first['io.modelcontextprotocol/clientCapabilities'])).toBe(true);
      capabilities = { ...CAPS, roots: { listChanged: true } };
      void session.request('tools/list', {});
      await flush();
      const changed = metaOf(last('tools/list'));
      expect(changed).not.toBe(first);
      expect(changed['io.modelcontextprotocol/clientCapabilities']).toEqual(capabilities);
      void session.request('tools/list', {});
      await flush();
      expect(Object.isFrozen(metaOf(last('tools/list')))).toBe(true);
      // A request with `_meta` of its own gets a fresh one, its keys kept.
      void session.request('tools/list', { _meta: { 'com.example/trace': 'x' } });
      await flush();
      const own = metaOf(last('tools/list'));
      expect(Object.isFrozen(own)).toBe(false);
      expect(own).toEqual({ ...changed, 'com.example/trace': 'x' });
    });

    it('does not seal capabilities that come as a new object with every request', async () => {
      const { session, last } = await modernSession({ capabilities: () => ({ ...CAPS }) });
      for (let i = 0; i < 3; i++) void session.request('tools/list', {});
      await flush();
      const meta = metaOf(last('tools/list'));
      expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual(CAPS);
      expect(Object.isFrozen(meta)).toBe(false);
      expect(Object.isFrozen(meta['io.modelcontextprotocol/clientCapabilities'])).toBe(false);
    });

    it('holds a call made during discovery and sends it with the modern _meta once Operating', async () => {
      const { session, last, reply, peer } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      const call = session.request('tools/list', {}, { waitForOperating: true });
      await flush();
      expect(peer.sent('tools/list')).toEqual([]);
      expect(session.pendingRequests().map((r) => [r.method, r.state])).toContainEqual(['tools/list', 'created']);
      await reply(last('server/discover'), { result: DISCOVERED });
      await agreed;
      await flush();
      const list = last('tools/list');
      expect(metaOf(list)['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
      await reply(list, { result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' } });
      await expect(call).resolves.toMatchObject({ tools: [] });
    });

    it('falls back to the initialize handshake when discover gets a legacy answer (-32601), and sends no modern _meta then (MCP 2026-07-28 basic/versioning §Backward Compatibility)', async () => {
      const { session, last, reply } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      await reply(last('server/discover'), { error: { code: -32601, message: 'Method not found' } });
      expect(session.state.kind).toBe('initializing');
      const init = last('initialize');
      expect(init.params).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: CLIENT_INFO });
      await reply(init, { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'legacy', version: '1' } } });
      await expect(agreed).resolves.toMatchObject({ era: 'legacy', result: { serverInfo: { name: 'legacy' } } });
      expect(session.state).toMatchObject({ kind: 'operating', version: '2025-11-25' });
      void session.request('tools/list', {});
      await flush();
      expect(last('tools/list').params).toEqual({});
    });

    it('takes a server that never answers discover for a legacy one after discoveryTimeoutMs', async () => {
      const { session, last, clock } = await setup({ discoveryTimeoutMs: 500 });
      void session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      clock.advance(500);
      await flush();
      expect(last('initialize').params).toMatchObject({ protocolVersion: '2025-11-25' });
    });

    it('waits past discoveryTimeoutMs on a transport whose peer answers or exits, and takes the late answer as modern', async () => {
      const { session, last, reply, clock, peer } = await setup({ discoveryTimeoutMs: 500 }, { answersUntilClosed: true });
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      clock.advance(5_000);
      await flush();
      expect(peer.sent('initialize')).toEqual([]);
      expect(session.state.kind).toBe('initializing');
      await reply(last('server/discover'), { result: DISCOVERED });
      await expect(agreed).resolves.toMatchObject({ era: 'modern' });
      expect(session.state).toMatchObject({ kind: 'operating', version: MODERN });
    });

    it('still falls back at once there when the answer is a legacy one (-32601)', async () => {
      const { session, last, reply } = await setup({ discoveryTimeoutMs: 500 }, { answersUntilClosed: true });
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      await reply(last('server/discover'), { error: { code: -32601, message: 'Method not found' } });
      await reply(last('initialize'), { result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'legacy', version: '1' } } });
      await expect(agreed).resolves.toMatchObject({ era: 'legacy' });
    });

    it('ends with a RequestTimeoutError when discovery used the whole connect timeout, sending no initialize', async () => {
      const { session, peer, clock } = await setup({}, { answersUntilClosed: true });
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO }, { timeoutMs: 1_000 });
      const failure = agreed.catch((error: unknown) => error);
      await flush();
      clock.advance(1_000);
      await flush();
      expect(await failure).toBeInstanceOf(RequestTimeoutError);
      expect(peer.sent('initialize')).toEqual([]);
      expect(session.state.kind).toBe('terminated');
    });

    it('gives the fallback handshake only what discovery left of the connect timeout', async () => {
      const { session, peer, last, reply, clock } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO }, { timeoutMs: 1_000 });
      const failure = agreed.catch((error: unknown) => error);
      await flush();
      clock.advance(600);
      await reply(last('server/discover'), { error: { code: -32601, message: 'Method not found' } });
      expect(peer.sent('initialize')).toHaveLength(1);
      clock.advance(399);
      await flush();
      expect(session.state.kind).toBe('initializing');
      clock.advance(1);
      await flush();
      expect(await failure).toMatchObject({ name: 'RequestTimeoutError', timeoutMs: 400 });
    });

    it('skips discovery when protocolVersion pins a handshake revision', async () => {
      const { session, last, reply, peer } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO, protocolVersion: '2025-06-18' });
      await flush();
      expect(peer.sent('server/discover')).toEqual([]);
      const init = last('initialize');
      expect(init.params).toMatchObject({ protocolVersion: '2025-06-18' });
      await reply(init, { result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'legacy', version: '1' } } });
      await expect(agreed).resolves.toMatchObject({ era: 'legacy' });
    });

    it('skips discovery when supportedVersions holds no modern revision', async () => {
      const { session, last, peer } = await setup({ supportedVersions: ['2025-11-25'] });
      void session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      expect(peer.sent('server/discover')).toEqual([]);
      expect(last('initialize').params).toMatchObject({ protocolVersion: '2025-11-25' });
    });

    it('never falls back when only 2026-07-28 is allowed: a legacy answer ends the connection', async () => {
      const { session, last, reply, peer } = await setup({ supportedVersions: [MODERN] });
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      await reply(last('server/discover'), { error: { code: -32601, message: 'Method not found' } });
      await expect(agreed).rejects.toMatchObject({ code: -32601 });
      expect(peer.sent('initialize')).toEqual([]);
      expect(session.state.kind).toBe('terminated');
    });

    it('with a modern protocolVersion pinned, falls back to the newest legacy version on a legacy server', async () => {
      const { session, last, reply } = await setup();
      void session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO, protocolVersion: MODERN });
      await flush();
      await reply(last('server/discover'), { error: { code: -32601, message: 'Method not found' } });
      expect(last('initialize').params).toMatchObject({ protocolVersion: '2025-11-25' });
    });

    it('runs the handshake at the mutual legacy version a -32022 names (MCP 2026-07-28 basic/versioning §Protocol Version Negotiation)', async () => {
      const { session, last, reply } = await setup();
      void session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      await reply(last('server/discover'), { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-06-18'], requested: MODERN } } });
      expect(last('initialize').params).toMatchObject({ protocolVersion: '2025-06-18' });
    });

    it('tries the same version again once when a -32022 lists it as supported (a transient refusal)', async () => {
      const { session, last, reply, peer } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      const refusal = { code: -32022, message: 'Unsupported protocol version', data: { supported: [MODERN], requested: MODERN } };
      await reply(last('server/discover'), { error: refusal });
      expect(peer.sent('server/discover')).toHaveLength(2);
      await reply(last('server/discover'), { error: refusal });
      await expect(agreed).rejects.toMatchObject({ name: 'UnsupportedProtocolVersionError' });
      expect(peer.sent('server/discover')).toHaveLength(2);
    });

    it('ends with UnsupportedProtocolVersionError when a -32022 names no version in common', async () => {
      const { session, last, reply } = await setup();
      const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO });
      await flush();
      await reply(last('server/discover'), { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2099-01-01'], requested: MODERN } } });
      await expect(agreed).rejects.toMatchObject({ name: 'UnsupportedProtocolVersionError', supported: ['2099-01-01'] });
      expect(session.closeInfo?.reason).toBe('versionMismatch');
    });

    it('never falls back after a modern refusal (-32020) or when the era is pinned to modern', async () => {
      for (const [options, error] of [
        [{}, { code: -32020, message: 'Header mismatch' }],
        [{ era: 'modern' }, { code: -32601, message: 'Method not found' }],
      ] as const) {
        const { session, last, reply, peer } = await setup();
        const agreed = session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO }, options);
        await flush();
        await reply(last('server/discover'), { error });
        await expect(agreed).rejects.toMatchObject({ code: error.code });
        expect(session.state.kind).toBe('terminated');
        expect(peer.sent('initialize')).toEqual([]);
      }
    });

    it('skips discovery with era legacy', async () => {
      const { session, peer } = await setup();
      void session.negotiate({ capabilities: CAPS, clientInfo: CLIENT_INFO }, { era: 'legacy' });
      await flush();
      expect(peer.sent('server/discover')).toEqual([]);
      expect(peer.sent('initialize')).toHaveLength(1);
    });
  });

  describe('#request resultType (MCP 2026-07-28 basic/index §ResultType)', () => {
    it('reads an absent resultType as complete and refuses an unknown one', async () => {
      const { session, last, reply } = await modernSession();
      const plain = session.request('tools/list', {});
      await flush();
      await reply(last('tools/list'), { result: { tools: [], ttlMs: 0, cacheScope: 'public' } });
      await expect(plain).resolves.toMatchObject({ resultType: 'complete', tools: [] });
      const odd = session.request('tools/list', {});
      await flush();
      await reply(last('tools/list'), { result: { resultType: 'task', tools: [], ttlMs: 0, cacheScope: 'public' } });
      await expect(odd).rejects.toMatchObject({ name: 'InvalidResultError', message: expect.stringContaining('"task"') as string });
    });

    it('refuses ping, which the modern revision does not have', async () => {
      const { session } = await modernSession();
      await expect(session.ping()).rejects.toMatchObject({ name: 'CapabilityNotSupportedError' });
    });
  });

  describe('#request input rounds (MRTR, MCP 2026-07-28 basic/patterns/mrtr)', () => {
    it('answers input requests through the registered handlers and retries with a new id, the answers and the state echoed', async () => {
      const { session, last, reply, events } = await modernSession();
      const asked: JsonObject[] = [];
      session.setRequestHandler('elicitation/create', (params, context) => {
        asked.push({ params, method: context.method, version: context.protocolVersion });
        return { action: 'accept', content: { name: 'Ada' } };
      });
      const call = session.request('tools/call', { name: 'greet', arguments: { loud: true } });
      await flush();
      const first = last('tools/call');
      await reply(first, {
        result: {
          resultType: 'input_required',
          inputRequests: { user_name: { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } } } },
          requestState: 'opaque==',
        },
      });
      const retry = last('tools/call');
      expect(retry.id).not.toBe(first.id);
      expect(retry.params).toMatchObject({
        name: 'greet',
        arguments: { loud: true },
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        requestState: 'opaque==',
        _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN },
      });
      expect(asked).toEqual([{ params: expect.objectContaining({ message: 'Name?' }) as JsonObject, method: 'elicitation/create', version: MODERN }]);
      const moves = events.flatMap((event) => (event.type === 'request.transition' && event.method === 'tools/call' ? [[event.requestId, event.to]] : []));
      expect(moves).toEqual([
        [first.id, 'created'],
        [first.id, 'dispatched'],
        [first.id, 'waitingForInput'],
        [retry.id, 'processing'],
      ]);
      const rounds = events.flatMap((event) => (event.type === 'request.transition' && event.method === 'tools/call' ? [event.input] : []));
      const round = { round: 1, keys: ['user_name'], firstId: first.id };
      expect(rounds).toEqual([undefined, undefined, round, round]);
      await reply(retry, { result: { resultType: 'complete', content: [{ type: 'text', text: 'Hello, Ada!' }] } });
      await expect(call).resolves.toMatchObject({ content: [{ text: 'Hello, Ada!' }] });
    });

    it('shows the request waiting for input while a handler runs, and sends no state the server did not give', async () => {
      const { session, last, reply } = await modernSession();
      let answer!: (value: JsonObject) => void;
      session.setRequestHandler('roots/list', () => new Promise<JsonObject>((resolve) => (answer = resolve)));
      void session.request('resources/read', { uri: 'file:///a' });
      await flush();
      await reply(last('resources/read'), { result: { resultType: 'input_required', inputRequests: { roots: { method: 'roots/list' } } } });
      expect(session.pendingRequests()).toEqual([expect.objectContaining({ method: 'resources/read', state: 'waitingForInput' })]);
      answer({ roots: [] });
      await flush();
      const retry = last('resources/read');
      expect(retry.params).toEqual(expect.objectContaining({ uri: 'file:///a', inputResponses: { roots: { roots: [] } } }));
      expect(retry.params).not.toHaveProperty('requestState');
    });

    it('retries at once with only the state when the server asks for nothing (load shedding)', async () => {
      const { session, last, reply, peer } = await modernSession();
      void session.request('prompts/get', { name: 'p' });
      await flush();
      await reply(last('prompts/get'), { result: { resultType: 'input_required', requestState: 's1' } });
      expect(peer.sent('prompts/get')).toHaveLength(2);
      expect(last('prompts/get').params).not.toHaveProperty('inputResponses');
      expect(last('prompts/get').params).toMatchObject({ requestState: 's1' });
    });

    it('fails with InputRoundsExceededError after maxInputRounds rounds', async () => {
      const { session, last, reply } = await modernSession({ maxInputRounds: 2 });
      const call = session.request('tools/call', { name: 'loop' });
      call.catch(() => undefined);
      for (let round = 0; round < 3; round++) {
        await flush();
        await reply(last('tools/call'), { result: { resultType: 'input_required', requestState: `r${round}` } });
      }
      await expect(call).rejects.toMatchObject({ name: 'InputRoundsExceededError', code: 'INPUT_ROUNDS_EXCEEDED', category: 'timeout' });
    });

    it('fails the call with the handler error, and with -32601 when no handler serves the input request', async () => {
      const { session, last, reply, peer } = await modernSession();
      const call = session.request('tools/call', { name: 'sample' });
      await flush();
      await reply(last('tools/call'), { result: { resultType: 'input_required', inputRequests: { q: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } } } });
      await expect(call).rejects.toMatchObject({ code: -32601 });
      expect(peer.sent('tools/call')).toHaveLength(1);
    });
  });
});

describe('Session (server) without a server/discover handler', () => {
  it("answers the probe -32601 and stays Uninitialized, so an 'auto' client falls back to the handshake", async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createPair();
    const server = new Session({
      role: 'server',
      capabilities: () => ({ tools: {} }),
      onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'raw-legacy', version: '1' } }),
    });
    const client = new Session({ role: 'client', capabilities: () => ({}), supportedVersions: ['2025-11-25', MODERN] });
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    const outcome = await client.negotiate({ capabilities: {}, clientInfo: CLIENT_INFO }, { era: 'auto' });
    expect(outcome.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    await flush();
    expect(server.state.kind).toBe('operating');
    expect(server.protocolVersion).toBe('2025-11-25');
  });
});
