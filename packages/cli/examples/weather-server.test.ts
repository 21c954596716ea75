import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { describe, expect, it } from 'vitest';
import register, { serverInfo } from './weather-server.js';

describe('the README’s entry module (examples/weather-server.ts)', () => {
  it('registers a tool, a resource and a prompt, and returns its dispose function', async () => {
    const server = new McpServer(serverInfo);
    const dispose = register(server);
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).content).toEqual([{ type: 'text', text: 'Sunny in Oslo' }]);
    expect((await client.readResource({ uri: 'weather://cities' })).contents).toEqual([{ uri: 'weather://cities', text: '["Lisbon","Oslo"]' }]);
    expect((await client.getPrompt({ name: 'packing', arguments: { city: 'Oslo' } })).messages).toHaveLength(1);
    await client.close();
    await server.close();
    dispose();
  });
});
