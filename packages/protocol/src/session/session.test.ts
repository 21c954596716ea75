import { describe, expect, it } from 'vitest';
import { LEGACY_PROTOCOL_VERSIONS } from '../versions.js';
import { createPair, flush } from './test-support.js';

describe('Session', () => {
  describe('#initialize', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('completes the handshake at %s and reaches operating on both sides', async (version) => {
      const pair = createPair({ version });
      await pair.handshake();
      expect(pair.client.state.kind).toBe('operating');
      expect(pair.server.state.kind).toBe('operating');
      expect(pair.client.protocolVersion).toBe(version);
      expect(pair.server.protocolVersion).toBe(version);
      expect(pair.client.peer?.info.name).toBe('test-server');
      expect(pair.server.peer?.info.name).toBe('test-client');
    });
  });

  describe('#request', () => {
    it('exchanges requests both ways once operating', async () => {
      const pair = createPair();
      pair.server.setRequestHandler('tools/list', () => ({ tools: [] }));
      pair.client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp', name: 'tmp' }] }));
      await pair.handshake();
      await expect(pair.client.request('tools/list')).resolves.toEqual({ tools: [] });
      await expect(pair.server.request('roots/list')).resolves.toMatchObject({ roots: [{ uri: 'file:///tmp' }] });
    });
  });

  describe('#close', () => {
    it('settles pending requests and fires onclose once', async () => {
      let closes = 0;
      const pair = createPair({ client: { onclose: () => closes++ } });
      pair.server.setRequestHandler('tools/list', () => new Promise(() => {}));
      await pair.handshake();
      const pending = pair.client.request('tools/list');
      await flush();
      await pair.client.close();
      await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await pair.client.close();
      expect(closes).toBe(1);
      expect(pair.client.state.kind).toBe('terminated');
      await pair.server.closed;
      expect(pair.server.state.kind).toBe('terminated');
    });
  });
});
