/**
 * `@statemcp/client` over Streamable HTTP in the 2026-07-28 era, on real 127.0.0.1 sockets: the
 * client leaves tools with broken `x-mcp-header` annotations out of `tools/list` (with a
 * diagnostic), mirrors annotated arguments into `Mcp-Param-*` headers that the server checks, and
 * cancels a request by closing its stream — no `notifications/cancelled` is posted (MCP
 * 2026-07-28 Transports §Streamable HTTP, Utilities §Cancellation). The transport names no
 * method: the client passes the headers, the session asks the transport to cancel.
 */
import { Client } from '@statemcp/client';
import { RequestCancelledError, type InspectEvent } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { Servers, firstText, recordingFetch } from '../../test/mcp-fixture.js';
import { StreamableHttpClientTransport } from './streamable-http.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

function annotatedServer(): { server: McpServer; started: Promise<void>; aborted: Promise<void> } {
  const server = new McpServer({ name: 'annotated', version: '1.0.0' });
  server.registerTool('regional', { inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] } }, (args) => ({
    content: [{ type: 'text', text: `region ${String((args as { region: unknown }).region)}` }],
  }));
  server.registerTool('broken', { inputSchema: { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Bad Name' } } } }, () => ({ content: [{ type: 'text', text: 'never listed' }] }));
  let markStarted: () => void = () => undefined;
  let markAborted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const aborted = new Promise<void>((resolve) => (markAborted = resolve));
  server.registerTool('wait', { description: 'Runs until its request is cancelled' }, (_args, extra) => {
    markStarted();
    return new Promise((_resolve, reject) => {
      const stop = (): void => {
        markAborted();
        reject(extra.signal.reason as Error);
      };
      if (extra.signal.aborted) stop();
      else extra.signal.addEventListener('abort', stop, { once: true });
    });
  });
  return { server, started, aborted };
}

describe('Client over Streamable HTTP, 2026-07-28: tool argument headers and cancellation', () => {
  it('leaves out a tool with a broken annotation and mirrors an annotated argument the server checks', async () => {
    const { server } = annotatedServer();
    const { url } = await servers.start({ connect: (transport) => server.connect(transport) });
    const recorder = recordingFetch();
    const events: InspectEvent[] = [];
    const client = new Client({ name: 'modern', version: '1.0.0' }, { supportedVersions: ['2026-07-28'], inspect: (event) => events.push(event) });
    await client.connect(new StreamableHttpClientTransport(url, { fetch: recorder.fetch }));
    expect(client.era).toBe('modern');

    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['regional', 'wait']);
    const diagnostic = events.find((event) => event.type === 'diagnostic' && event.message.includes('Left out tool "broken"'));
    expect(diagnostic).toBeDefined();

    // Non-ASCII travels base64-encoded; the server refuses a call whose header is missing or differs (-32020).
    expect(firstText(await client.callTool({ name: 'regional', arguments: { region: 'Zürich' } }))).toBe('region Zürich');
    const call = recorder.exchanges.find((exchange) => exchange.rpc === 'tools/call');
    expect(call?.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'regional', 'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=` });
    await client.close();
  });

  it('cancels by closing the request stream: the handler aborts and no notifications/cancelled is posted', async () => {
    const { server, started, aborted } = annotatedServer();
    const { url } = await servers.start({ connect: (transport) => server.connect(transport) });
    const recorder = recordingFetch();
    const client = new Client({ name: 'modern', version: '1.0.0' }, { supportedVersions: ['2026-07-28'] });
    await client.connect(new StreamableHttpClientTransport(url, { fetch: recorder.fetch }));

    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    await started;
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    await aborted;
    expect(recorder.exchanges.map((exchange) => exchange.rpc)).not.toContain('notifications/cancelled');
    await client.close();
  });
});
