/** Client adapter for the official SDK 2.x (`@modelcontextprotocol/client`). */
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createSdk2Server } from '../servers/sdk2.js';
import { officialAdapter } from './official.js';

export const { inMemory, stdio, http } = officialAdapter<Transport, Client>({
  newClient: (info) => new Client(info),
  callTool: (client, name, args, timeoutMs) => client.callTool({ name, arguments: args }, timeoutMs === undefined ? undefined : { timeout: timeoutMs }),
  // 'refresh': always a round trip (2.x would otherwise serve its response cache).
  countTools: async (client) => (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.length,
  linkedPair: () => InMemoryTransport.createLinkedPair(),
  createServer: createSdk2Server,
  stdioTransport: (params) => new StdioClientTransport(params),
  httpTransport: (url) => new StreamableHTTPClientTransport(url),
});
