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

  describe('level 2–4 templates', () => {
    function filesServer() {
      const server = new McpServer(INFO);
      server.registerResourceTemplate(
        'files',
        'files://{root}{/path*}{?rev,format}',
        { complete: { root: (value) => ['repo', 'docs'].filter((root) => root.startsWith(value)), format: () => ['raw', 'html'] } },
        (uri, { root, path, rev }) => ({ contents: [{ uri, text: JSON.stringify({ root, path, rev: rev ?? null }) }] }),
      );
      server.registerResourceTemplate('search', 'search://{+scope}{?q,lang}{#section}', {}, (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }));
      return server;
    }

    it.each([
      ['files://repo/src/index.ts?format=raw&rev=42', { root: 'repo', path: ['src', 'index.ts'], rev: '42' }],
      ['files://repo', { root: 'repo', path: [], rev: null }],
      ['search://a/b%20c?lang=en&q=x#top', { scope: 'a/b c', lang: 'en', q: 'x', section: 'top' }],
    ])('reads %s with its typed variables', async (uri, expected) => {
      const test = await initializedClient(filesServer());
      const { contents } = await test.client.request('resources/read', { uri });
      expect(JSON.parse((contents as { text: string }[])[0]?.text ?? '')).toEqual(expected);
    });

    it('answers a URI no template matches with -32002', async () => {
      const test = await initializedClient(filesServer());
      await expect(test.client.request('resources/read', { uri: 'files://' })).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound, data: { uri: 'files://' } });
    });

    it('completes variables of any expression, query variables included', async () => {
      const test = await initializedClient(filesServer());
      const ref = { type: 'ref/resource', uri: 'files://{root}{/path*}{?rev,format}' };
      await expect(test.client.request('completion/complete', { ref, argument: { name: 'root', value: 'd' } })).resolves.toEqual({ completion: { values: ['docs'] } });
      await expect(test.client.request('completion/complete', { ref, argument: { name: 'format', value: '' } })).resolves.toEqual({ completion: { values: ['raw', 'html'] } });
    });
  });

  describe('#update', () => {
    it('replaces a resource\'s metadata and reader, renames it and moves its URI in place, in one list_changed', async () => {
      const server = resourceServer();
      const test = await initializedClient(server);
      const handle = server.registerResource('late', 'test://late', { description: 'old' }, (uri) => ({ contents: [{ uri, text: 'old' }] }));
      await flush();
      handle.update({ name: 'renamed', uri: 'test://moved', mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'new' }] }));
      handle.update({ name: 'renamed', uri: 'test://moved', mimeType: 'text/markdown' });
      await flush();
      expect(test.notifications('notifications/resources/list_changed')).toHaveLength(2);
      expect(handle.name).toBe('renamed');
      const { resources } = await test.client.request('resources/list');
      expect((resources as JsonObject[]).find((r) => r.name === 'renamed')).toEqual({ uri: 'test://moved', name: 'renamed', mimeType: 'text/markdown' });
      await expect(test.client.request('resources/read', { uri: 'test://moved' })).resolves.toEqual({ contents: [{ uri: 'test://moved', text: 'new' }] });
      await expect(test.client.request('resources/read', { uri: 'test://late' })).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound });
      handle.remove();
      await expect(test.client.request('resources/read', { uri: 'test://moved' })).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound });
    });

    it('keeps the resource\'s place in the list and refuses a URI already registered, changing nothing', async () => {
      const server = resourceServer();
      const handle = server.registerResource('a', 'test://a', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
      server.registerResource('b', 'test://b', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
      handle.update({ uri: 'test://a-moved' });
      expect(() => handle.update({ uri: 'test://static-text', description: 'lost' })).toThrow(/already registered/);
      const test = await initializedClient(server);
      const { resources } = await test.client.request('resources/list');
      expect((resources as JsonObject[]).map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://template/1/data', 'test://a-moved', 'test://b']);
      expect((resources as JsonObject[])[3]).toEqual({ uri: 'test://a-moved', name: 'a' });
    });

    it('changes a template\'s text, name, completers and reader', async () => {
      const server = new McpServer(INFO);
      const handle = server.registerResourceTemplate('old', 'test://old/{id}', { complete: { id: () => ['1'] } }, (uri, { id }) => ({ contents: [{ uri, text: `old ${id}` }] }));
      const test = await initializedClient(server);
      handle.update({ name: 'new', uriTemplate: 'test://new{/path*}', complete: { path: () => ['a'] } }, (uri, { path }) => ({ contents: [{ uri, text: `new ${path.join('|')}` }] }));
      await flush();
      expect(test.notifications('notifications/resources/list_changed')).toHaveLength(1);
      expect(handle.name).toBe('new');
      await expect(test.client.request('resources/templates/list')).resolves.toEqual({ resourceTemplates: [{ uriTemplate: 'test://new{/path*}', name: 'new' }] });
      await expect(test.client.request('resources/read', { uri: 'test://new/a/b' })).resolves.toEqual({ contents: [{ uri: 'test://new/a/b', text: 'new a|b' }] });
      await expect(test.client.request('resources/read', { uri: 'test://old/1' })).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound });
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'test://new{/path*}' }, argument: { name: 'path', value: '' } })).resolves.toEqual({
        completion: { values: ['a'] },
      });
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/resource', uri: 'test://old/{id}' }, argument: { name: 'id', value: '' } })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    });

    it('refuses an unmatchable template or a taken name, leaving the template as it was', async () => {
      const server = new McpServer(INFO);
      server.registerResourceTemplate('taken', 'test://taken/{x}', {}, (uri) => ({ contents: [{ uri, text: 'taken' }] }));
      const handle = server.registerResourceTemplate('mine', 'test://mine/{id}', {}, (uri, { id }) => ({ contents: [{ uri, text: id }] }));
      expect(() => handle.update({ uriTemplate: 'test://mine/{a}{b}' })).toThrow(/cannot be matched unambiguously/);
      expect(() => handle.update({ name: 'taken' })).toThrow(/already registered/);
      const test = await initializedClient(server);
      expect(handle.name).toBe('mine');
      await expect(test.client.request('resources/read', { uri: 'test://mine/7' })).resolves.toEqual({ contents: [{ uri: 'test://mine/7', text: '7' }] });
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
