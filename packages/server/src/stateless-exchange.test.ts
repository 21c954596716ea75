import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, type JsonObject, type JsonRpcMessage, type SendOptions, type Transport, type TransportSink } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import type { ServerConnection } from './server-connection.js';

const MODERN = '2026-07-28';

/** One POST of stateless Streamable HTTP as a server sees it: one exchange at a stated version. */
class ExchangeTransport implements Transport {
  readonly singleExchange = true;
  readonly written: JsonRpcMessage[] = [];
  sink: TransportSink | undefined;

  constructor(readonly assumedProtocolVersion: string) {}

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  async send(message: JsonRpcMessage, _options?: SendOptions): Promise<void> {
    this.written.push(message);
  }

  async close(): Promise<void> {
    this.sink?.onClose({ initiator: 'local' });
  }
}

function call(id: number, name: string, args: JsonObject, meta: JsonObject = {}): JsonObject {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { [PROTOCOL_VERSION_META_KEY]: MODERN, [CLIENT_CAPABILITIES_META_KEY]: {}, ...meta } } };
}

async function settled(transport: ExchangeTransport, count: number): Promise<void> {
  for (let i = 0; i < 50 && transport.written.length < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('Server', () => {
  describe('#connect', () => {
    it('serves a 2026-07-28 single exchange without a session: not a listed connection, handlers see the request connection', async () => {
      const opened: ServerConnection[] = [];
      const server = new McpServer({ name: 's', version: '1' }, { onconnection: (connection) => opened.push(connection) });
      let seen: { stateless: boolean; version: string | undefined; operating: boolean } | undefined;
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
        seen = { stateless: extra.connection.stateless, version: extra.connection.protocolVersion, operating: extra.connection.isOperating };
        await extra.log('info', `said ${text}`);
        return { content: [{ type: 'text', text }] };
      });
      const transport = new ExchangeTransport(MODERN);
      const connection = await server.connect(transport);
      transport.sink?.onMessage(call(1, 'echo', { text: 'hi' }, { [LOG_LEVEL_META_KEY]: 'info' }));
      await settled(transport, 2);
      expect(seen).toEqual({ stateless: true, version: MODERN, operating: true });
      expect(server.connections).toEqual([]);
      expect(opened).toEqual([]);
      expect(transport.written.map((message) => ('method' in message ? message.method : 'result'))).toEqual(['notifications/message', 'result']);
      expect(transport.written[1]).toMatchObject({ id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' } } } });
      const closed = connection.closed;
      await transport.close();
      await expect(closed).resolves.toEqual({ reason: 'closed' });
      expect(connection.state.kind).toBe('terminated');
    });

    it('refuses a request to the client from such an exchange, as the stateless era does', async () => {
      const server = new McpServer({ name: 's', version: '1' });
      let refusal: unknown;
      server.registerTool('ask', { inputSchema: {} }, async (_args, extra) => {
        refusal = await extra.connection.listRoots().catch((error: unknown) => error);
        return { content: [] };
      });
      const transport = new ExchangeTransport(MODERN);
      await server.connect(transport);
      transport.sink?.onMessage(call(1, 'ask', {}));
      await settled(transport, 1);
      expect(refusal).toMatchObject({ message: expect.stringContaining('servers send no requests') });
    });

    it('gives a session to a single exchange at a session-era version (stateless: true)', async () => {
      const server = new McpServer({ name: 's', version: '1' });
      const connection = await server.connect(new ExchangeTransport('2025-11-25'));
      expect(server.connections).toEqual([connection]);
      await connection.close();
    });
  });
});
