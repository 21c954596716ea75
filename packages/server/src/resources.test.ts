import { ErrorCode, LEGACY_PROTOCOL_VERSIONS, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from './mcp-server.js';
import { flush, initializedClient } from './test-harness.js';

const INFO = { name: 'resources-server', version: '1.0.0' };

function resourceServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer(INFO, options);
  server.registerResource('static-text', 'test://static-text', { title: 'Static', description: 'A text', mimeType: 'text/plain', icons: [{ src: 'https://example.com/r.png' }] }, (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { mimeType: 'image/png' }, (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: 'iVBORw0KGgo=' }] }));
  server.registerResourceTemplate(
    'template',
    'test://template/{id}/data',
    {
      title: 'Data by id',
      mimeType: 'application/json',
      list: () => [{ uri: 'test://template/1/data', name: 'one' }],
      complete: { id: (value) => ['1', '12', '123'].filter((id) => id.startsWith(value)) },
    },
    (uri, { id }) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] }),
  );
  return server;
}

describe('McpServer', () => {
  describe('#registerResource', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('lists static resources and template listings at %s', async (version) => {
      const test = await initializedClient(resourceServer(), { version });
      const { resources } = await test.client.request('resources/list');
      const list = resources as JsonObject[];
      expect(list.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://template/1/data']);
      expect(list[0]?.title === undefined).toBe(version < '2025-06-18');
      expect(list[0]?.icons === undefined).toBe(version < '2025-11-25');
    });

    it('reads text and binary resources', async () => {
      const test = await initializedClient(resourceServer());
      await expect(test.client.request('resources/read', { uri: 'test://static-text' })).resolves.toEqual({
        contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      });
      await expect(test.client.request('resources/read', { uri: 'test://static-binary' })).resolves.toMatchObject({ contents: [{ blob: 'iVBORw0KGgo=' }] });
    });

    it('answers an unknown URI with -32002 and data.uri', async () => {
      const test = await initializedClient(resourceServer());
      await expect(test.client.request('resources/read', { uri: 'test://nope' })).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound, data: { uri: 'test://nope' } });
    });

    it('answers -32603 when a read callback returns an invalid result', async () => {
      const server = new McpServer(INFO);
      server.registerResource('broken', 'test://broken', {}, () => ({ contents: [{ uri: 'test://broken' }] }) as never);
      const test = await initializedClient(server);
      await expect(test.client.request('resources/read', { uri: 'test://broken' })).rejects.toMatchObject({ code: ErrorCode.InternalError });
    });

    it('declares resources with subscribe and listChanged', async () => {
      const test = await initializedClient(resourceServer());
      expect(test.client.peer?.capabilities).toMatchObject({ resources: { subscribe: true, listChanged: true }, completions: {} });
    });
  });

  describe('#registerResourceTemplate', () => {
    it('reads through a template with its variables', async () => {
      const test = await initializedClient(resourceServer());
      const { contents } = await test.client.request('resources/read', { uri: 'test://template/123/data' });
      expect(JSON.parse((contents as { text: string }[])[0]?.text ?? '')).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    });

    it('lists templates shaped per revision', async () => {
      const test = await initializedClient(resourceServer(), { version: '2025-03-26' });
      await expect(test.client.request('resources/templates/list')).resolves.toEqual({
        resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template', mimeType: 'application/json' }],
      });
    });

    it('completes template variables', async () => {
      const test = await initializedClient(resourceServer());
      await expect(
        test.client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '12' } }),
      ).resolves.toEqual({ completion: { values: ['12', '123'] } });
      await expect(
        test.client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'test://unknown/{x}' }, argument: { name: 'x', value: '' } }),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('refuses a template that cannot be matched unambiguously at registration, saying why', () => {
      const server = new McpServer(INFO);
      expect(() => server.registerResourceTemplate('bad', 'test://{name}{.ext}', {}, () => ({ contents: [] }))).toThrow(/cannot be matched unambiguously: \{name\}\{\.ext\}: a value of \{name\} may contain "\."/);
      expect(() => server.registerResourceTemplate('bad', 'test://{a', {}, () => ({ contents: [] }))).toThrow(/Unbalanced braces/);
      expect(server.capabilities().resources).toBeUndefined();
    });
  });

  describe('subscriptions', () => {
    it('notifies only subscribed connections, until they unsubscribe', async () => {
      const server = resourceServer();
      const subscribed = await initializedClient(server);
      const other = await initializedClient(server);
      await expect(subscribed.client.request('resources/subscribe', { uri: 'test://static-text' })).resolves.toEqual({});
      await server.notifyResourceUpdated('test://static-text');
      await server.notifyResourceUpdated('test://static-binary');
      await flush();
      expect(subscribed.notifications('notifications/resources/updated').map((m) => m.params)).toEqual([{ uri: 'test://static-text' }]);
      expect(other.notifications('notifications/resources/updated')).toHaveLength(0);
      await expect(subscribed.client.request('resources/unsubscribe', { uri: 'test://static-text' })).resolves.toEqual({});
      await server.notifyResourceUpdated('test://static-text');
      await flush();
      expect(subscribed.notifications('notifications/resources/updated')).toHaveLength(1);
    });

    it('refuses subscribe with -32601 when the server turned subscriptions off', async () => {
      const server = resourceServer({ capabilities: { resources: { subscribe: false } } });
      const test = await initializedClient(server, { session: { strictCapabilities: false } });
      await expect(test.client.request('resources/subscribe', { uri: 'test://static-text' })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    });
  });

  describe('list_changed', () => {
    it('notifies resource list changes, and disabled resources disappear', async () => {
      const server = resourceServer();
      const test = await initializedClient(server);
      const added = server.registerResource('late', 'test://late', {}, (uri) => ({ contents: [{ uri, text: 'late' }] }));
      await flush();
      expect(test.notifications('notifications/resources/list_changed')).toHaveLength(1);
      added.disable();
      await flush();
      await expect(test.client.request('resources/read', { uri: 'test://late' })).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound });
    });
  });
});
