// The port's acceptance (issue 21): the notes server over real 127.0.0.1 Streamable HTTP, driven
// by statemcp's client and by the official SDK 2.x client. Each calls the custom method, a tool
// whose result depends on the `x-user` request header, reads the level-3 templated resource with
// query variables, lists the app tool and reads its `ui://` view.
import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@statemcp/client';
import { readAppView, toolUi, withAppsSupport } from '@statemcp/client/apps';
import { type ListeningServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { APP_MIME_TYPE } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { BOARD_HTML, BOARD_URI, NOTES_TEMPLATE, SEARCH_METHOD, Search, startNotesHttpServer } from '../src/notes-server.js';

const running: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((listening) => listening.close()));
});

async function start(): Promise<URL> {
  const listening = await startNotesHttpServer();
  running.push(listening);
  expect(listening.url.hostname).toBe('127.0.0.1');
  return listening.url;
}

const BOARD_NOTES = [
  { path: 'ideas/mcp', title: 'MCP ideas', author: 'grace' },
  { path: 'shopping', title: 'Shopping', author: 'ada' },
];

describe('the notes port with statemcp’s client', () => {
  async function connect(url: URL, user?: string): Promise<Client> {
    const client = new Client({ name: 'notes-host', version: '1.0.0' }, { capabilities: withAppsSupport() });
    await client.connect(new StreamableHttpClientTransport(url, user === undefined ? {} : { headers: { 'x-user': user } }));
    return client;
  }

  it('calls the custom method', async () => {
    const client = await connect(await start());
    expect(await client.request(SEARCH_METHOD, { query: 'TEA' }, Search)).toEqual({ paths: ['shopping'] });
    expect(await client.request(SEARCH_METHOD, { query: 'a' }, Search)).toEqual({ paths: ['ideas/mcp', 'shopping'] });
    // Params are checked against the same schema before anything is sent…
    await expect(client.request(SEARCH_METHOD, { query: '' }, Search)).rejects.toMatchObject({ name: 'InvalidArgumentError', code: 'INVALID_ARGUMENT' });
    // …and by the server, which answers -32602 to params its schema refuses.
    await expect(client.request(SEARCH_METHOD, { query: '' }, { result: Search.result })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('acts for the user named by the x-user header', async () => {
    const url = await start();
    const ada = await connect(url, 'ada');
    const saved = await ada.callTool({ name: 'add_note', arguments: { path: 'work/standup', title: 'Standup', body: ['Demo the port'] } });
    expect(saved).toMatchObject({ content: [{ type: 'text', text: 'Saved work/standup for ada.' }], structuredContent: { path: 'work/standup', author: 'ada' } });
    expect((await ada.callTool({ name: 'my_notes', arguments: {} })).structuredContent).toEqual({ author: 'ada', paths: ['shopping', 'work/standup'] });

    const grace = await connect(url, 'grace');
    expect((await grace.callTool({ name: 'my_notes', arguments: {} })).content).toEqual([{ type: 'text', text: 'grace wrote: ideas/mcp' }]);
    const nobody = await connect(url);
    expect((await nobody.callTool({ name: 'my_notes', arguments: {} })).content).toEqual([{ type: 'text', text: 'anonymous has no notes.' }]);
    await Promise.all([ada.close(), grace.close(), nobody.close()]);
  });

  it('reads the level-3 templated note with and without query variables', async () => {
    const client = await connect(await start());
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ name: 'note', uriTemplate: NOTES_TEMPLATE })]);

    const markdown = await client.readResource({ uri: 'notes://ideas/mcp' });
    expect(markdown.contents).toEqual([{ uri: 'notes://ideas/mcp', mimeType: 'text/markdown', text: '# MCP ideas\n\n- Port a server\n- Add a view\n- Try the 2026 era' }]);
    const plain = await client.readResource({ uri: 'notes://ideas/mcp?format=plain&lines=2' });
    expect(plain.contents).toEqual([{ uri: 'notes://ideas/mcp?format=plain&lines=2', mimeType: 'text/plain', text: 'Port a server\nAdd a view' }]);
    const completion = await client.complete({ ref: { type: 'ref/resource', uri: NOTES_TEMPLATE }, argument: { name: 'path', value: 'id' } });
    expect(completion.completion.values).toEqual(['ideas/mcp']);
    await client.close();
  });

  it('lists the app tool and reads its view', async () => {
    const client = await connect(await start());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add_note', 'my_notes', 'show_board']);
    const board = tools.find((tool) => tool.name === 'show_board');
    expect(board === undefined ? undefined : toolUi(board)).toEqual({ resourceUri: BOARD_URI });

    const view = await readAppView(client, BOARD_URI);
    expect(view).toEqual({ uri: BOARD_URI, html: BOARD_HTML, ui: { csp: { connectDomains: [], resourceDomains: [] } } });
    expect(view.html).toMatch(/^<!doctype html>/);
    expect((await client.callTool({ name: 'show_board', arguments: {} })).structuredContent).toEqual({ notes: BOARD_NOTES });
    await client.close();
  });
});

describe('the notes port with the official SDK 2.x client', () => {
  async function connect(url: URL, user?: string): Promise<OfficialClient> {
    const client = new OfficialClient({ name: 'official-v2', version: '2.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, user === undefined ? {} : { requestInit: { headers: { 'x-user': user } } }));
    return client;
  }

  it('calls the custom method with a result schema', async () => {
    const client = await connect(await start());
    expect(await client.request({ method: SEARCH_METHOD, params: { query: 'bread' } }, Search.result)).toEqual({ paths: ['shopping'] });
    await expect(client.request({ method: SEARCH_METHOD, params: {} }, Search.result)).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('acts for the user named by the x-user header', async () => {
    const url = await start();
    const grace = await connect(url, 'grace');
    const saved = await grace.callTool({ name: 'add_note', arguments: { path: 'talks/ports', title: 'Ports', body: ['v2 client'] } });
    expect(saved.structuredContent).toEqual({ path: 'talks/ports', author: 'grace' });
    expect((await grace.callTool({ name: 'my_notes', arguments: {} })).content).toEqual([{ type: 'text', text: 'grace wrote: ideas/mcp, talks/ports' }]);
    const nobody = await connect(url);
    expect((await nobody.callTool({ name: 'my_notes', arguments: {} })).structuredContent).toEqual({ author: 'anonymous', paths: [] });
    await Promise.all([grace.close(), nobody.close()]);
  });

  it('reads the level-3 templated note with query variables', async () => {
    const client = await connect(await start());
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([NOTES_TEMPLATE]);
    const read = await client.readResource({ uri: 'notes://shopping?lines=1' });
    expect(read.contents).toEqual([{ uri: 'notes://shopping?lines=1', mimeType: 'text/markdown', text: '# Shopping\n\n- Tea' }]);
    const plain = await client.readResource({ uri: 'notes://ideas/mcp?format=plain' });
    expect(plain.contents).toEqual([{ uri: 'notes://ideas/mcp?format=plain', mimeType: 'text/plain', text: 'Port a server\nAdd a view\nTry the 2026 era' }]);
    await client.close();
  });

  it('lists the app tool with its _meta.ui and reads the ui:// view', async () => {
    const client = await connect(await start());
    const { tools } = await client.listTools();
    const board = tools.find((tool) => tool.name === 'show_board');
    expect(board?._meta).toMatchObject({ ui: { resourceUri: BOARD_URI } });
    const { contents } = await client.readResource({ uri: BOARD_URI });
    expect(contents).toEqual([expect.objectContaining({ uri: BOARD_URI, mimeType: APP_MIME_TYPE, text: BOARD_HTML })]);
    expect(APP_MIME_TYPE).toBe('text/html;profile=mcp-app');
    const shown = await client.callTool({ name: 'show_board', arguments: {} });
    expect(shown.content).toEqual([{ type: 'text', text: 'ideas/mcp: MCP ideas (grace)\nshopping: Shopping (ada)' }]);
    await client.close();
  });
});
