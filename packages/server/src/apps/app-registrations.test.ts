import { APP_MIME_TYPE, LEGACY_PROTOCOL_VERSIONS, UI_EXTENSION_ID, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../mcp-server.js';
import { initializedClient } from '../test-harness.js';
import { appsSettings, clientSupportsApps, registerAppTool, registerAppView } from './app-registrations.js';

const INFO = { name: 'apps', version: '1.0.0' };
const DECLARING = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } };

function appServer(): McpServer {
  const server = new McpServer(INFO);
  registerAppView(server, 'view', 'ui://t/view.html', { html: (extra) => `<!doctype html><p>${extra.protocolVersion}</p>`, permissions: { camera: {} }, domain: 'abc.example.com' });
  registerAppTool(server, 'show', { _meta: { 'io.example/trace': 'x' }, ui: { resourceUri: 'ui://t/view.html', visibility: ['app'] } }, (_args, extra) => ({
    content: [{ type: 'text', text: JSON.stringify({ supported: clientSupportsApps(extra), settings: appsSettings(extra) ?? null }) }],
  }));
  return server;
}

describe('registerAppTool', () => {
  it.each(LEGACY_PROTOCOL_VERSIONS.filter((version) => version >= '2025-06-18'))('keeps other _meta keys beside ui and the legacy key at %s', async (version) => {
    const test = await initializedClient(appServer(), { version });
    const { tools } = await test.client.request('tools/list');
    expect((tools as JsonObject[])[0]?._meta).toEqual({ 'io.example/trace': 'x', ui: { resourceUri: 'ui://t/view.html', visibility: ['app'] }, 'ui/resourceUri': 'ui://t/view.html' });
  });

  it('refuses a view URI outside ui:// and a visibility that is empty or unknown', () => {
    const server = new McpServer(INFO);
    expect(() => registerAppTool(server, 'a', { ui: { resourceUri: 'https://x/view.html' } }, () => ({ content: [] }))).toThrow(/ui:\/\/ scheme/);
    expect(() => registerAppTool(server, 'b', { ui: { resourceUri: 'ui://x', visibility: [] } }, () => ({ content: [] }))).toThrow(/visibility/);
    expect(() => registerAppTool(server, 'c', { ui: { resourceUri: 'ui://x', visibility: ['user' as 'app'] } }, () => ({ content: [] }))).toThrow(/visibility/);
    expect(server.capabilities()).not.toHaveProperty('extensions');
  });
});

describe('registerAppView', () => {
  it('serves the view as text/html;profile=mcp-app with its _meta.ui on the listing and the contents', async () => {
    const test = await initializedClient(appServer());
    const { resources } = await test.client.request('resources/list');
    const ui = { permissions: { camera: {} }, domain: 'abc.example.com' };
    expect(resources).toEqual([{ uri: 'ui://t/view.html', name: 'view', mimeType: APP_MIME_TYPE, _meta: { ui } }]);
    await expect(test.client.request('resources/read', { uri: 'ui://t/view.html' })).resolves.toEqual({
      contents: [{ uri: 'ui://t/view.html', mimeType: APP_MIME_TYPE, text: '<!doctype html><p>2025-11-25</p>', _meta: { ui } }],
    });
  });

  it('refuses a URI outside ui://', () => {
    expect(() => registerAppView(new McpServer(INFO), 'v', 'ui://', { html: '' })).toThrow(/ui:\/\/ scheme/);
  });
});

describe('the extension declaration', () => {
  it.each(LEGACY_PROTOCOL_VERSIONS)('is in the server capabilities under extensions at %s', async (version) => {
    const test = await initializedClient(appServer(), { version });
    expect(test.client.peer?.capabilities).toMatchObject({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } });
  });

  it('refuses an extension id without a prefix', () => {
    expect(() => new McpServer(INFO).declareExtension('ui')).toThrow(/Invalid extension id/);
  });
});

describe('clientSupportsApps', () => {
  it('is true for a client that declared the extension and false, with no settings, for one that did not', async () => {
    const declaring = await initializedClient(appServer(), { capabilities: DECLARING });
    await expect(declaring.client.request('tools/call', { name: 'show' })).resolves.toEqual({
      content: [{ type: 'text', text: JSON.stringify({ supported: true, settings: { mimeTypes: [APP_MIME_TYPE] } }) }],
    });
    const plain = await initializedClient(appServer());
    await expect(plain.client.request('tools/call', { name: 'show' })).resolves.toEqual({ content: [{ type: 'text', text: JSON.stringify({ supported: false, settings: null }) }] });
  });

  it('reads a legacy experimental declaration without MIME types as not rendering HTML views', async () => {
    const test = await initializedClient(appServer(), { capabilities: { experimental: { [UI_EXTENSION_ID]: {} } } });
    await expect(test.client.request('tools/call', { name: 'show' })).resolves.toEqual({ content: [{ type: 'text', text: JSON.stringify({ supported: false, settings: {} }) }] });
  });
});
