// The example server as a real child process over stdio, listed and read by statemcp's client
// and by the official v1 SDK client, both declaring MCP Apps.
import { fileURLToPath } from 'node:url';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@statemcp/client';
import { readAppView, toolUi, withAppsSupport } from '@statemcp/client/apps';
import { APP_MIME_TYPE, UI_EXTENSION_ID } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { describe, expect, it } from 'vitest';
import { VIEW_HTML, VIEW_URI } from '../src/dice-server.js';

const command = process.execPath;
const args = ['--import', fileURLToPath(new URL('../bin/register.mjs', import.meta.url)), fileURLToPath(new URL('../src/serve-stdio.ts', import.meta.url))];

describe('serve-stdio', () => {
  it('serves the tool and its view to the statemcp client', async () => {
    const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: withAppsSupport() });
    await client.connect(new StdioClientTransport({ command, args }));
    const { tools } = await client.listTools();
    const uri = tools[0] === undefined ? undefined : toolUi(tools[0])?.resourceUri;
    expect(uri).toBe(VIEW_URI);
    const view = await readAppView(client, VIEW_URI);
    expect(view).toEqual({ uri: VIEW_URI, html: VIEW_HTML, ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
    const result = await client.callTool({ name: 'roll_dice', arguments: { sides: 2 } });
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Rolled [12] \(d2\); the view shows it\.$/) });
    await client.close();
  });

  it('serves the tool and its view to the official v1 SDK client', async () => {
    const client = new OfficialClient({ name: 'official-host', version: '1.0.0' }, { capabilities: { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } } });
    await client.connect(new OfficialStdioClientTransport({ command, args }));
    const { tools } = await client.listTools();
    expect(tools).toEqual([expect.objectContaining({ name: 'roll_dice', _meta: expect.objectContaining({ ui: { resourceUri: VIEW_URI, visibility: ['model', 'app'] } }) })]);
    const read = await client.readResource({ uri: VIEW_URI });
    expect(read.contents).toEqual([expect.objectContaining({ uri: VIEW_URI, mimeType: APP_MIME_TYPE, text: VIEW_HTML })]);
    await client.close();
  });
});
