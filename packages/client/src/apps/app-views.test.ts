import { APP_MIME_TYPE, InvalidResultError, UI_EXTENSION_ID } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createScriptedServer } from '../../test/scripted-server.js';
import { Client } from '../client.js';
import { isToolCallableByApp, isToolVisibleToModel, readAppView, serverAppsSettings, toolUi, viewUi, withAppsSupport } from './app-views.js';

describe('withAppsSupport', () => {
  it('adds the extension with the HTML view MIME type, keeping what was declared', () => {
    expect(withAppsSupport({ roots: { listChanged: true } })).toEqual({ roots: { listChanged: true }, extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } });
    expect(withAppsSupport(undefined, ['text/html;profile=mcp-app', 'text/uri-list'])).toEqual({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE, 'text/uri-list'] } } });
  });
});

describe('serverAppsSettings', () => {
  it('reads the declaration, and is undefined without one', () => {
    expect(serverAppsSettings({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE, 3] } } } as never)).toEqual({ mimeTypes: [APP_MIME_TYPE] });
    expect(serverAppsSettings({ extensions: { [UI_EXTENSION_ID]: {} } } as never)).toEqual({});
    expect(serverAppsSettings({ tools: {} })).toBeUndefined();
    expect(serverAppsSettings(undefined)).toBeUndefined();
  });
});

describe('toolUi', () => {
  it('reads _meta.ui, the deprecated flat key, and drops what is not a ui:// URI or a known visibility', () => {
    expect(toolUi({ _meta: { ui: { resourceUri: 'ui://a', visibility: ['app', 'user'] } } })).toEqual({ resourceUri: 'ui://a', visibility: ['app'] });
    expect(toolUi({ _meta: { 'ui/resourceUri': 'ui://legacy' } })).toEqual({ resourceUri: 'ui://legacy' });
    expect(toolUi({ _meta: { ui: { resourceUri: 'https://x' } } })).toBeUndefined();
    expect(toolUi({})).toBeUndefined();
  });

  it('defaults visibility to model and app', () => {
    expect([isToolVisibleToModel({}), isToolCallableByApp({})]).toEqual([true, true]);
    const appOnly = { _meta: { ui: { resourceUri: 'ui://a', visibility: ['app'] } } };
    expect([isToolVisibleToModel(appOnly), isToolCallableByApp(appOnly)]).toEqual([false, true]);
  });
});

describe('viewUi', () => {
  it('keeps only the known, well-typed fields', () => {
    expect(viewUi({ _meta: { ui: { csp: { connectDomains: ['https://a', 1], frameDomains: 'x' }, permissions: { camera: {}, microphone: true }, prefersBorder: 'yes', domain: 'd' } } })).toEqual({
      csp: { connectDomains: ['https://a'] },
      permissions: { camera: {} },
      domain: 'd',
    });
    expect(viewUi({})).toEqual({});
  });
});

describe('readAppView', () => {
  async function clientReading(contents: unknown[]): Promise<Client> {
    const server = await createScriptedServer({ capabilities: { resources: {} }, answer: (method) => (method === 'resources/read' ? { contents } : undefined) });
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(server.clientSide);
    return client;
  }

  it('decodes a base64 blob view as UTF-8', async () => {
    const html = '<!doctype html><p>héllo ✓</p>';
    const blob = btoa(String.fromCharCode(...new TextEncoder().encode(html)));
    const client = await clientReading([{ uri: 'ui://v', mimeType: APP_MIME_TYPE, blob, _meta: { ui: { prefersBorder: true } } }]);
    await expect(readAppView(client, 'ui://v')).resolves.toEqual({ uri: 'ui://v', html, ui: { prefersBorder: true } });
    await client.close();
  });

  it('rejects with InvalidResultError when no contents are text/html;profile=mcp-app', async () => {
    const client = await clientReading([{ uri: 'ui://v', mimeType: 'text/html', text: '<p>plain</p>' }]);
    await expect(readAppView(client, 'ui://v')).rejects.toBeInstanceOf(InvalidResultError);
    await client.close();
  });
});
