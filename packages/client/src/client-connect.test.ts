import { AlreadyConnectedError, InvalidStateError, LEGACY_PROTOCOL_VERSIONS, SimulatedClock, UnsupportedProtocolVersionError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';

const info = { name: 'test-client', version: '1.0.0' };

describe('Client', () => {
  describe('#connect', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('reaches operating at %s against a server that speaks only that revision', async (version) => {
      const peer = createPeer({ version, instructions: 'Use the tools.' });
      await peer.connect();
      expect(peer.client.state.kind).toBe('operating');
      expect(peer.server.state.kind).toBe('operating');
      expect(peer.client.protocolVersion).toBe(version);
      expect(peer.client.serverInfo).toMatchObject({ name: 'test-server', version: '1.0.0' });
      expect(peer.client.serverCapabilities).toMatchObject({ tools: {} });
      expect(peer.client.instructions).toBe('Use the tools.');
      expect(peer.server.peer?.info.name).toBe('test-client');
    });

    it('discovers first (era auto), then on a legacy server proposes its newest version and sends notifications/initialized exactly once', async () => {
      const server = await createScriptedServer();
      const client = new Client(info);
      await client.connect(server.clientSide);
      await flush();
      const [initialize] = server.requests('initialize');
      expect(initialize?.params).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: info, capabilities: {} });
      expect(server.notifications('notifications/initialized')).toHaveLength(1);
      expect(server.received.slice(0, 2).map((m) => m.method)).toEqual(['server/discover', 'initialize']);
    });

    it('proposes options.protocolVersion when given', async () => {
      const server = await createScriptedServer();
      const client = new Client(info, { protocolVersion: '2025-03-26' });
      await client.connect(server.clientSide);
      expect(server.requests('initialize')[0]?.params?.protocolVersion).toBe('2025-03-26');
      expect(client.protocolVersion).toBe('2025-03-26');
    });

    it('accepts an older supported version the server answers with', async () => {
      const server = await createScriptedServer({ version: '2024-11-05' });
      const client = new Client(info);
      await client.connect(server.clientSide);
      expect(client.protocolVersion).toBe('2024-11-05');
    });

    it('rejects with UnsupportedProtocolVersionError and terminates when the answer is a version it does not speak', async () => {
      const server = await createScriptedServer({ version: '1999-01-01' });
      const client = new Client(info, { supportedVersions: ['2025-06-18', '2025-11-25'] });
      const error = await client.connect(server.clientSide).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
      expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION', requested: '1999-01-01' });
      expect(client.state).toMatchObject({ kind: 'terminated', reason: 'versionMismatch' });
      await expect(client.closed).resolves.toMatchObject({ reason: 'versionMismatch' });
      expect(server.notifications('notifications/initialized')).toHaveLength(0);
      expect(server.serverSide.closed).toBe(true);
    });

    it('throws AlreadyConnectedError on a second connect while the first is still in progress', async () => {
      const server = await createScriptedServer({ holdInitialize: true });
      const other = await createScriptedServer();
      const client = new Client(info);
      const first = client.connect(server.clientSide);
      const error = await client.connect(other.clientSide).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AlreadyConnectedError);
      expect(error).toMatchObject({ code: 'ALREADY_CONNECTED' });
      expect(other.received).toHaveLength(0);
      await client.close();
      await expect(first).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });

    it('throws AlreadyConnectedError on a second connect once connected, keeping the first transport', async () => {
      const peer = createPeer();
      await peer.connect();
      const other = await createScriptedServer();
      await expect(peer.client.connect(other.clientSide)).rejects.toBeInstanceOf(AlreadyConnectedError);
      expect(peer.client.session.transport).toBe(peer.clientSide);
      await expect(peer.client.ping()).resolves.toBeTypeOf('number');
    });

    it('starts a fresh session when connecting again after close', async () => {
      const first = await createScriptedServer();
      const second = await createScriptedServer({ version: '2025-06-18' });
      const client = new Client(info);
      await client.connect(first.clientSide);
      const firstSession = client.session;
      await client.close();
      await client.connect(second.clientSide);
      expect(client.session).not.toBe(firstSession);
      expect(client.state.kind).toBe('operating');
      expect(client.protocolVersion).toBe('2025-06-18');
    });

    it('declares the capabilities implied by handlers, merged with options.capabilities', async () => {
      const server = await createScriptedServer();
      const client = new Client(info, { capabilities: { experimental: { trace: {} } }, roots: [{ uri: 'file:///work' }] });
      client.onSampling(() => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }), { tools: true });
      client.onElicitation(() => ({ action: 'cancel' }), { url: true });
      await client.connect(server.clientSide);
      expect(server.requests('initialize')[0]?.params?.capabilities).toEqual({
        experimental: { trace: {} },
        sampling: { tools: {} },
        elicitation: { form: {}, url: {} },
        roots: { listChanged: true },
      });
      expect(client.capabilities).toEqual(server.requests('initialize')[0]?.params?.capabilities);
    });

    it('rejects with the timeout error and closes when the server never answers initialize', async () => {
      const clock = new SimulatedClock();
      const server = await createScriptedServer({ holdInitialize: true });
      const client = new Client(info, { clock });
      const connecting = client.connect(server.clientSide, { timeoutMs: 5_000 });
      await flush();
      clock.advance(5_000);
      await expect(connecting).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      expect(client.state.kind).toBe('terminated');
      // initialize is never cancelled on the wire
      expect(server.notifications('notifications/cancelled')).toHaveLength(0);
    });
  });

  describe('#connect with a signal', () => {
    it('abandons the handshake when the signal aborts, closing without cancelling initialize on the wire', async () => {
      const server = await createScriptedServer({ holdInitialize: true });
      const client = new Client(info);
      const controller = new AbortController();
      const connecting = client.connect(server.clientSide, { signal: controller.signal });
      await flush();
      controller.abort('user closed the dialog');
      await expect(connecting).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
      expect(client.state.kind).toBe('terminated');
      expect(server.notifications('notifications/cancelled')).toHaveLength(0);
    });
  });

  describe('calls made while connecting', () => {
    it('waits for Operating and then sends them, after notifications/initialized', async () => {
      const server = await createScriptedServer({ answer: (method) => (method === 'tools/list' ? { tools: [] } : undefined) });
      const client = new Client(info);
      const connecting = client.connect(server.clientSide);
      const listing = client.listTools();
      await connecting;
      await expect(listing).resolves.toEqual({ tools: [] });
      expect(server.received.map((m) => m.method)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    });

    it('keeps them in the ledger while they wait, visible in pendingRequests()', async () => {
      const server = await createScriptedServer({ holdInitialize: true, answer: (method) => (method === 'tools/list' ? { tools: [] } : undefined) });
      const client = new Client(info);
      const connecting = client.connect(server.clientSide).catch(() => undefined);
      const listing = client.listTools().catch((error: unknown) => error);
      const waiting = client.session.pendingRequests().filter((request) => request.method === 'tools/list');
      expect(waiting).toMatchObject([{ direction: 'outbound', state: 'created' }]);
      expect(server.requests('tools/list')).toHaveLength(0);
      await client.close();
      await connecting;
      await expect(listing).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });

    it("rejects them with the handshake's error when it fails", async () => {
      const server = await createScriptedServer({ version: '1999-01-01' });
      const client = new Client(info);
      const connecting = client.connect(server.clientSide);
      const listing = client.listTools();
      await expect(connecting).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
      await expect(listing).rejects.toBeInstanceOf(UnsupportedProtocolVersionError);
      expect(server.requests('tools/list')).toHaveLength(0);
    });

    it('cancels a waiting call whose signal aborts, without sending it', async () => {
      const server = await createScriptedServer({ holdInitialize: true });
      const client = new Client(info);
      const connecting = client.connect(server.clientSide).catch(() => undefined);
      const controller = new AbortController();
      const listing = client.listTools({}, { signal: controller.signal });
      controller.abort('user gave up');
      await expect(listing).rejects.toMatchObject({ code: 'REQUEST_CANCELLED', reason: 'user gave up' });
      await client.close();
      await connecting;
      expect(server.requests('tools/list')).toHaveLength(0);
    });
  });

  describe('calls made without a connection', () => {
    it('fail with InvalidStateError before connect', async () => {
      const client = new Client(info);
      await expect(client.listTools()).rejects.toBeInstanceOf(InvalidStateError);
    });

    it('fail with ConnectionClosedError after close', async () => {
      const peer = createPeer();
      await peer.connect();
      await peer.client.close();
      await expect(peer.client.listTools()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });
  });
});
