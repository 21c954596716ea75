import { JsonRpcError, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';

describe('ClientHandlerTable', () => {
  describe('#requestHandler', () => {
    it('answers roots/list on every session of the client, one connection after another', async () => {
      const peer = createPeer({ version: '2025-06-18' });
      await peer.client.setRoots([{ uri: 'file:///home/me/project', name: 'project' }]);
      await peer.connect();
      await expect(peer.server.request('roots/list')).resolves.toEqual({ roots: [{ uri: 'file:///home/me/project', name: 'project' }] });
      await peer.client.close();
      await flush();
      const again = createPeer({ version: '2025-06-18' });
      await again.server.connect(again.serverSide);
      await peer.client.connect(again.clientSide);
      await expect(again.server.request('roots/list')).resolves.toEqual({ roots: [{ uri: 'file:///home/me/project', name: 'project' }] });
    });

    it('gives way to a handler the session registers itself, and removeRequestHandler hides it (-32601)', async () => {
      const peer = createPeer({ version: '2025-06-18' });
      await peer.client.setRoots([{ uri: 'file:///a', name: 'a' }]);
      await peer.connect();
      peer.client.session.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///b', name: 'b' }] }));
      await expect(peer.server.request('roots/list')).resolves.toEqual({ roots: [{ uri: 'file:///b', name: 'b' }] });
      peer.client.session.removeRequestHandler('roots/list');
      const error = await peer.server.request('roots/list').then(
        () => expect.unreachable('expected a rejection'),
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).code).toBe(-32601);
    });
  });

  describe('#notificationHandler', () => {
    it('gives way to a handler the session registers itself, and removeNotificationHandler silences the listeners', async () => {
      const peer = createPeer({ version: '2025-06-18' });
      await peer.connect();
      const heard: JsonObject[] = [];
      const own: JsonObject[] = [];
      peer.client.onLoggingMessage((message) => heard.push({ ...message }));
      await peer.server.notify('notifications/message', { level: 'info', data: 'one' });
      await flush();
      peer.client.session.setNotificationHandler('notifications/message', (params) => void own.push(params));
      await peer.server.notify('notifications/message', { level: 'info', data: 'two' });
      await flush();
      peer.client.session.removeNotificationHandler('notifications/message');
      await peer.server.notify('notifications/message', { level: 'info', data: 'three' });
      await flush();
      expect(heard).toEqual([{ level: 'info', data: 'one' }]);
      expect(own).toEqual([{ level: 'info', data: 'two' }]);
    });
  });
});
