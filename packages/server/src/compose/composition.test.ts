/**
 * `Composition` over in-memory transports: local servers mounted under prefixes, driven by
 * statemcp's client in both eras.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError, SimulatedClock, type InspectEvent } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../mcp-server.js';
import { fixtureServer } from '../test-fixture-server.js';
import { UPSTREAM_UNAVAILABLE_ERROR_CODE, UpstreamUnavailableError, compose, proxy, type ForwardedRequest, type MountState } from './index.js';

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('forecast', { description: 'Forecast', inputSchema: { city: z.string() } }, ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }));
  return server;
}

async function gatewayWith(mounts: Record<string, McpServer>) {
  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' }, { pageSize: 5 });
  gateway.registerTool('own', {}, () => ({ content: [{ type: 'text', text: 'own' }] }));
  const composition = compose(gateway);
  for (const [prefix, server] of Object.entries(mounts)) await composition.mount(prefix, server);
  return { gateway, composition };
}

async function downstream(gateway: McpServer, era: 'legacy' | 'modern', configure: (client: Client) => void = () => {}): Promise<Client> {
  const client = new Client({ name: 'downstream', version: '1.0.0' }, { era });
  configure(client);
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await gateway.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe.each(['legacy', 'modern'] as const)('Composition (downstream %s)', (era) => {
  describe('#mount', () => {
    it('lists every mount under its prefix, merged with the own items and paginated', async () => {
      const { gateway, composition } = await gatewayWith({ fixture: fixtureServer(), weather: weatherServer() });
      const client = await downstream(gateway, era);
      const tools = (await client.listAllTools()).map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(['own', 'weather_forecast', 'fixture_add', 'fixture_test_tool_with_progress']));
      expect((await client.listTools()).nextCursor).toBeDefined(); // pages of 5
      expect((await client.listAllResources()).map((resource) => resource.uri)).toEqual(['fixture+test://static-text', 'fixture+test://watched-resource']);
      expect((await client.listAllResourceTemplates()).map((template) => template.uriTemplate)).toEqual(['fixture+test://template/{id}/data']);
      expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(['fixture_test_simple_prompt', 'fixture_test_prompt_with_arguments']);
      await client.close();
      await composition.close();
      expect(gateway.capabilities().tools).toBeDefined();
    });

    it('forwards calls, reads, prompts and completions with rewritten URIs and progress', async () => {
      const { gateway, composition } = await gatewayWith({ fixture: fixtureServer(), weather: weatherServer() });
      const client = await downstream(gateway, era);
      const forecast = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Oslo' } });
      expect(forecast).toMatchObject({ content: [{ text: 'Sunny in Oslo' }] });
      expect(JSON.stringify(forecast)).not.toContain('"weather"'); // the upstream's 2026-07-28 envelope stays behind
      const progress: number[] = [];
      await client.callTool({ name: 'fixture_test_tool_with_progress' }, { onProgress: (update) => progress.push(update.progress) });
      expect(progress).toEqual([0, 50, 100]);
      const read = await client.readResource({ uri: 'fixture+test://template/7/data' });
      expect(read.contents[0]?.uri).toBe('fixture+test://template/7/data');
      const embedded = await client.callTool({ name: 'fixture_test_embedded_resource' });
      expect(JSON.stringify(embedded.content)).toContain('fixture+');
      await expect(client.getPrompt({ name: 'fixture_test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).resolves.toMatchObject({ messages: [{ role: 'user' }] });
      await client.close();
      await composition.close();
    });

    it('forwards an elicitation and a sampling request of an upstream to the calling client', async () => {
      const { gateway, composition } = await gatewayWith({ fixture: fixtureServer() });
      const client = await downstream(gateway, era, (c) => {
        c.onElicitation((params) => ({ action: 'accept', content: { username: `asked: ${params.message}` } }));
        c.onSampling((params) => ({ role: 'assistant', model: 'test', content: { type: 'text', text: `sampled ${JSON.stringify(params.messages[0]?.content)}` } }));
      });
      const elicited = await client.callTool({ name: 'fixture_test_elicitation', arguments: { message: 'who?' } });
      expect(JSON.stringify(elicited.content)).toContain('asked: who?');
      const sampled = await client.callTool({ name: 'fixture_test_sampling', arguments: { prompt: 'hello' } });
      expect(JSON.stringify(sampled.content)).toContain('sampled');
      await client.close();
      await composition.close();
    });

    it('forwards completions, and resource subscriptions with their updates', async () => {
      const fixture = fixtureServer();
      const { gateway, composition } = await gatewayWith({ fixture });
      expect(composition.mounts.get('fixture')?.state).toMatchObject({ kind: 'ready', protocolVersion: '2026-07-28' });
      const client = await downstream(gateway, era);
      const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'fixture_test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
      expect(completed.completion.values).toEqual(['testValue1', 'testValue2']);
      const stream = await client.listen({ resourceSubscriptions: ['fixture+test://watched-resource'] }); // resources/subscribe in the legacy era
      const updated = new Promise<string>((resolve) => stream.onNotification(({ params }) => resolve(String(params.uri))));
      await expect.poll(() => fixture.notifyResourceUpdated('test://watched-resource').then(() => Promise.race([updated, Promise.resolve('pending')]))).toBe('fixture+test://watched-resource');
      await stream.close();
      await client.close();
      await composition.close();
    });

    it('mounts an upstream as it is under the empty prefix', async () => {
      const { gateway, composition } = await gatewayWith({ '': fixtureServer() });
      const client = await downstream(gateway, era);
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(expect.arrayContaining(['own', 'add', 'test_simple_text']));
      await expect(client.readResource({ uri: 'test://static-text' })).resolves.toMatchObject({ contents: [{ uri: 'test://static-text' }] });
      await client.close();
      await composition.close();
    });

    it('refuses a prefix that is taken or breaks the naming rules', async () => {
      const { composition } = await gatewayWith({ weather: weatherServer() });
      await expect(composition.mount('weather', weatherServer())).rejects.toThrow(TypeError);
      await expect(composition.mount('1bad', weatherServer())).rejects.toThrow(TypeError);
      await expect(composition.mount('has_underscore', weatherServer())).rejects.toThrow(TypeError);
      await composition.close();
    });
  });
});

describe('Composition', () => {
  describe('#mount', () => {
    it('mirrors upstream list changes', async () => {
      const weather = weatherServer();
      const { gateway, composition } = await gatewayWith({ weather });
      const client = await downstream(gateway, 'legacy');
      const changed = new Promise<void>((resolve) => client.onToolsListChanged(resolve));
      weather.registerTool('alerts', {}, () => ({ content: [] }));
      await changed;
      await expect.poll(async () => (await client.listAllTools()).map((tool) => tool.name)).toContain('weather_alerts');
      await client.close();
      await composition.close();
    });

    it('announces an upstream list change that leaves the gateway\'s copy as it was', async () => {
      const weather = weatherServer();
      const { gateway, composition } = await gatewayWith({ weather });
      const client = await downstream(gateway, 'legacy');
      const changed = new Promise<void>((resolve) => client.onToolsListChanged(resolve));
      weather.registerTool('blip', {}, () => ({ content: [] })).remove(); // one list_changed upstream, nothing to mirror
      await changed;
      await client.close();
      await composition.close();
    });

    it('links each forwarded request to its upstream request, with the caller\'s trace context upstream', async () => {
      const upstream = weatherServer();
      const downstreamEvents: InspectEvent[] = [];
      const gateway = new McpServer({ name: 'gateway', version: '1.0.0' }, { inspect: (event) => downstreamEvents.push(event) });
      const linked: ForwardedRequest[] = [];
      const upstreamEvents: InspectEvent[] = [];
      const composition = compose(gateway, { onForward: (request) => linked.push(request) });
      await composition.mount('up', proxy(async () => {
        const [clientSide, serverSide] = InMemoryTransport.createPair();
        await upstream.connect(serverSide);
        return clientSide;
      }, { client: { inspect: (event) => upstreamEvents.push(event) } }));
      const client = await downstream(gateway, 'legacy');
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      await client.callTool({ name: 'up_forecast', arguments: { city: 'Oslo' } }, { traceContext: { traceparent } });
      const [request] = linked;
      expect(request).toMatchObject({ prefix: 'up', method: 'tools/call', downstream: { connectionId: gateway.connections[0]?.id } });
      const sent = upstreamEvents.find((event) => event.type === 'request.transition' && event.direction === 'outbound' && event.method === 'tools/call');
      expect(sent).toMatchObject({ sessionId: request?.upstream.sessionId, requestId: request?.upstream.requestId, trace: { traceparent } });
      const received = downstreamEvents.find((event) => event.type === 'request.transition' && event.direction === 'inbound' && event.method === 'tools/call');
      expect(received).toMatchObject({ sessionId: request?.downstream.connectionId, requestId: request?.downstream.requestId, trace: { traceparent } });
      await client.close();
      await composition.close();
    });

    it('fails in-flight calls with UpstreamUnavailableError, removes the items and reconnects with backoff', async () => {
      const clock = new SimulatedClock();
      const upstream = weatherServer();
      let release: () => void = () => {};
      upstream.registerTool('slow', {}, () => new Promise(() => { release(); }));
      const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
      const states: MountState['kind'][] = [];
      let sides: InMemoryTransport[] = [];
      const composition = compose(gateway, { clock, onMountState: (_prefix, state) => states.push(state.kind) });
      await composition.mount('up', proxy(async () => {
        const [clientSide, serverSide] = InMemoryTransport.createPair();
        sides = [clientSide, serverSide];
        await upstream.connect(serverSide);
        return clientSide;
      }, { reconnect: { initialDelayMs: 100 } }));
      const client = await downstream(gateway, 'legacy');
      const started = new Promise<void>((resolve) => { release = resolve; });
      const call = client.callTool({ name: 'up_slow' });
      await started;
      await sides[1]?.close(); // the upstream goes away mid-call
      const error: unknown = await call.catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).code).toBe(UPSTREAM_UNAVAILABLE_ERROR_CODE);
      expect((error as JsonRpcError).data).toEqual({ upstream: 'up' });
      await expect.poll(async () => (await client.listAllTools()).length).toBe(0);
      expect(states).toEqual(['ready', 'reconnecting']);
      clock.advance(100);
      await expect.poll(async () => (await client.listAllTools()).map((tool) => tool.name)).toEqual(['up_forecast', 'up_slow']);
      expect(states).toEqual(['ready', 'reconnecting', 'ready']);
      await client.close();
      await composition.close();
    });
  });
});

describe('UpstreamUnavailableError', () => {
  it('is a JsonRpcError that only its own instances match', () => {
    const error = new UpstreamUnavailableError('files', 'gone');
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(new JsonRpcError(-32050, 'other')).not.toBeInstanceOf(UpstreamUnavailableError);
    expect(error.toJSON()).toEqual({ code: UPSTREAM_UNAVAILABLE_ERROR_CODE, message: 'gone', data: { upstream: 'files' } });
  });
});
