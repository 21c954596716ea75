/** Client adapter for the official SDK 1.x (`@modelcontextprotocol/sdk`). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createSdk1Server } from '../servers/sdk1.js';
import { officialAdapter } from './official.js';

export const { inMemory, stdio, http } = officialAdapter<Transport, Client>({
  newClient: (info) => new Client(info),
  callTool: (client, name, args, timeoutMs) => client.callTool({ name, arguments: args }, undefined, timeoutMs === undefined ? undefined : { timeout: timeoutMs }),
  countTools: async (client) => (await client.listTools()).tools.length,
  linkedPair: () => InMemoryTransport.createLinkedPair(),
  createServer: createSdk1Server,
  stdioTransport: (params) => new StdioClientTransport(params),
  httpTransport: (url) => new StreamableHTTPClientTransport(url),
});
