// The example end to end in one process: statemcp's client as an MCP Apps host, and the official
// v1 SDK client with and without the extension (through the in-memory bridge of @statemcp/testing).
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { Client } from '@statemcp/client';
import { isToolCallableByApp, isToolVisibleToModel, readAppView, serverAppsSettings, toolUi, withAppsSupport } from '@statemcp/client/apps';
import { APP_MIME_TYPE, InMemoryTransport, UI_EXTENSION_ID } from '@statemcp/protocol';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { VIEW_HTML, VIEW_URI, createDiceServer } from './dice-server.js';

const VIEW_UI = { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true };

async function officialClient(declareApps: boolean): Promise<OfficialClient> {
  const capabilities = declareApps ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } } : {};
  const client = new OfficialClient({ name: 'official-host', version: '1.0.0' }, { capabilities });
  const { ours, theirs } = createOfficialBridge();
  await createDiceServer(() => 0.5).connect(ours);
  await client.connect(theirs);
  return client;
}

describe('createDiceServer', () => {
  describe('with the statemcp client as an MCP Apps host', () => {
    it('declares the extension, links the tool to its view, and serves the view with its CSP and border preference', async () => {
      const server = createDiceServer(() => 0.5);
      const [clientSide, serverSide] = InMemoryTransport.createPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: withAppsSupport() });
      await client.connect(clientSide);

      expect(serverAppsSettings(client.serverCapabilities)).toEqual({ mimeTypes: [APP_MIME_TYPE] });
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'roll_dice');
      expect(tool === undefined ? undefined : toolUi(tool)).toEqual({ resourceUri: VIEW_URI, visibility: ['model', 'app'] });
      expect(tool !== undefined && isToolVisibleToModel(tool) && isToolCallableByApp(tool)).toBe(true);

      const { resources } = await client.listResources();
      expect(resources).toEqual([expect.objectContaining({ uri: VIEW_URI, mimeType: APP_MIME_TYPE, _meta: { ui: VIEW_UI } })]);
      const view = await readAppView(client, VIEW_URI);
      expect(view).toEqual({ uri: VIEW_URI, html: VIEW_HTML, ui: VIEW_UI });
      expect(view.html).toMatch(/^<!doctype html>/);

      const result = await client.callTool({ name: 'roll_dice', arguments: { sides: 6 } });
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Rolled 4 (d6); the view shows it.' }], structuredContent: { value: 4, sides: 6 } });
      await client.close();
      await server.close();
    });
  });

  describe('with the official v1 SDK client', () => {
    it('lists the tool with its _meta.ui and reads the view as text/html;profile=mcp-app when the client declares the extension', async () => {
      const client = await officialClient(true);
      expect(client.getServerCapabilities()).toMatchObject({ extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } });
      const { tools } = await client.listTools();
      expect(tools).toEqual([expect.objectContaining({ name: 'roll_dice', _meta: { ui: { resourceUri: VIEW_URI, visibility: ['model', 'app'] }, 'ui/resourceUri': VIEW_URI } })]);
      const read = await client.readResource({ uri: VIEW_URI });
      expect(read.contents).toEqual([{ uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: VIEW_HTML, _meta: { ui: VIEW_UI } }]);
      await expect(client.callTool({ name: 'roll_dice', arguments: { sides: 20 } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'Rolled 11 (d20); the view shows it.' }],
        structuredContent: { value: 11, sides: 20 },
      });
      await client.close();
    });

    it('falls back to a plain tool with a text result when the client does not declare the extension', async () => {
      const client = await officialClient(false);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['roll_dice']);
      await expect(client.callTool({ name: 'roll_dice', arguments: {} })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'Rolled a 4 on a 6-sided die.' }],
      });
      await client.close();
    });
  });
});
