import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LiveRegistrations, RELOADABLE_CAPABILITIES, RegistrationRecorder, type RecordedRegistration } from './registrations.js';

type Register = (server: McpServer) => void;

/** A live server with a connected client that counts list_changed notifications per list. */
async function setUp() {
  const server = new McpServer({ name: 'live', version: '1.0.0' }, { capabilities: RELOADABLE_CAPABILITIES });
  const live = new LiveRegistrations(server);
  const record = (register: Register): RecordedRegistration[] => {
    const recorder = new RegistrationRecorder(server, new McpServer({ name: 'scratch', version: '0' }));
    register(recorder.server);
    recorder.seal();
    return recorder.registrations;
  };
  // The first version registers before the client connects, as `statemcp dev` does.
  return {
    server,
    live,
    record,
    async connect(first: Register) {
      live.apply(record(first));
      const [clientSide, serverSide] = InMemoryTransport.createPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'test', version: '1.0.0' });
      const heard = { tools: 0, resources: 0, prompts: 0 };
      client.onToolsListChanged(() => heard.tools++);
      client.onResourcesListChanged(() => heard.resources++);
      client.onPromptsListChanged(() => heard.prompts++);
      await client.connect(clientSide);
      clients.push(client);
      return { client, heard };
    },
  };
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text;

const v1: Register = (server) => {
  server.registerTool('greet', { description: 'Greets', inputSchema: { name: z.string() } }, ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}` }] }));
  server.registerResource('config', 'config://app', { mimeType: 'application/json' }, (uri) => ({ contents: [{ uri, text: '{"v":1}' }] }));
  server.registerPrompt('review', { description: 'Reviews code' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'review v1' } }] }));
};

describe('LiveRegistrations', () => {
  describe('#apply', () => {
    it('adds, updates and removes registrations on the live server and reports each', async () => {
      const { live, record, connect } = await setUp();
      const { client, heard } = await connect(v1);
      const diff = live.apply(
        record((server) => {
          server.registerTool('greet', { description: 'Greets warmly', inputSchema: { name: z.string() } }, ({ name }) => ({ content: [{ type: 'text', text: `Welcome, ${name}` }] }));
          server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
          server.registerResource('config', 'config://settings', { mimeType: 'application/json' }, (uri) => ({ contents: [{ uri, text: '{"v":2}' }] }));
        }),
      );
      expect(diff).toEqual({ added: ['tool add'], updated: ['tool greet', 'resource config'], removed: ['prompt review'] });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
        ['greet', 'Greets warmly'],
        ['add', undefined],
      ]);
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Welcome, Ada');
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['config://settings']);
      expect(heard).toEqual({ tools: 1, resources: 1, prompts: 1 });
    });

    it('swaps a handler whose listing did not change without a list_changed notification', async () => {
      const { live, record, connect } = await setUp();
      const { client, heard } = await connect(v1);
      const diff = live.apply(
        record((server) => {
          server.registerTool('greet', { description: 'Greets', inputSchema: { name: z.string() } }, ({ name }) => ({ content: [{ type: 'text', text: `Hi, ${name}` }] }));
          server.registerResource('config', 'config://app', { mimeType: 'application/json' }, (uri) => ({ contents: [{ uri, text: '{"v":2}' }] }));
          server.registerPrompt('review', { description: 'Reviews code' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'review v2' } }] }));
        }),
      );
      expect(diff).toEqual({ added: [], updated: [], removed: [] });
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hi, Ada');
      expect((await client.readResource({ uri: 'config://app' })).contents).toEqual([{ uri: 'config://app', text: '{"v":2}' }]);
      expect((await client.getPrompt({ name: 'review' })).messages[0]?.content).toEqual({ type: 'text', text: 'review v2' });
      expect(heard).toEqual({ tools: 0, resources: 0, prompts: 0 });
    });

    it('lets a call in progress finish on the handler it started with', async () => {
      const { live, record, connect } = await setUp();
      let release: () => void = () => undefined;
      let started: () => void = () => undefined;
      const running = new Promise<void>((resolve) => (started = resolve));
      const { client } = await connect((server) =>
        server.registerTool('slow', {}, async () => {
          started();
          await new Promise<void>((resolve) => (release = resolve));
          return { content: [{ type: 'text', text: 'old' }] };
        }),
      );
      const call = client.callTool({ name: 'slow' });
      await running;
      live.apply(record((server) => server.registerTool('slow', {}, () => ({ content: [{ type: 'text', text: 'new' }] }))));
      release();
      expect(text(await call)).toBe('old');
      expect(text(await client.callTool({ name: 'slow' }))).toBe('new');
    });

    it('tells a client about a list the first version left empty once a later version fills it', async () => {
      const { live, record, connect } = await setUp();
      const { client, heard } = await connect((server) => server.registerTool('only', {}, () => ({ content: [] })));
      live.apply(record((server) => server.registerPrompt('review', {}, () => ({ messages: [] }))));
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['review']);
      expect((await client.listTools()).tools).toEqual([]);
      expect(heard).toEqual({ tools: 1, resources: 0, prompts: 1 });
    });

    it('follows enable and disable made on the handle while registering', async () => {
      const { live, record, connect } = await setUp();
      const { client, heard } = await connect(v1);
      const diff = live.apply(
        record((server) => {
          v1(server);
          server.registerTool('hidden', {}, () => ({ content: [] })).disable();
        }),
      );
      expect(diff.added).toEqual(['tool hidden']);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
      live.apply(record((server) => server.registerTool('greet', { description: 'Greets', inputSchema: { name: z.string() } }, () => ({ content: [] })).disable()));
      expect((await client.listTools()).tools).toEqual([]);
      expect(heard.tools).toBe(2);
    });
  });
});

describe('RegistrationRecorder', () => {
  it('refuses a registration the server would refuse, before anything is recorded', () => {
    const live = new McpServer({ name: 'live', version: '1' });
    const recorder = new RegistrationRecorder(live, new McpServer({ name: 'scratch', version: '0' }));
    expect(() => recorder.server.registerResourceTemplate('bad', 'test://{a}{b}', {}, () => ({ contents: [] }))).toThrow(TypeError);
    expect(recorder.registrations).toEqual([]);
  });

  it('passes every other method to the live server', () => {
    const live = new McpServer({ name: 'live', version: '1' });
    const recorder = new RegistrationRecorder(live, new McpServer({ name: 'scratch', version: '0' }));
    recorder.server.declareExtension('io.example/feature', { on: true });
    expect((live.capabilities() as { extensions?: unknown }).extensions).toEqual({ 'io.example/feature': { on: true } });
  });

  it('refuses registrations and handle updates once the register function has returned', () => {
    const recorder = new RegistrationRecorder(new McpServer({ name: 'live', version: '1' }), new McpServer({ name: 'scratch', version: '0' }));
    const handle = recorder.server.registerTool('t', {}, () => ({ content: [] }));
    recorder.seal();
    expect(() => recorder.server.registerTool('late', {}, () => ({ content: [] }))).toThrow(/from the register function itself/);
    expect(() => handle.update({ description: 'x' })).toThrow(/edit the module instead/);
  });

  it('drops a registration the module removes while registering', () => {
    const recorder = new RegistrationRecorder(new McpServer({ name: 'live', version: '1' }), new McpServer({ name: 'scratch', version: '0' }));
    recorder.server.registerTool('t', {}, () => ({ content: [] })).remove();
    expect(recorder.registrations).toEqual([]);
  });
});
