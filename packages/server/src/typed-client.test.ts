/**
 * `typedClient` from `@statemcp/client` against statemcp's own server, in both eras: calls
 * typed from `typeof server` (names, arguments, results; negative cases at the type level),
 * `callTool` with an output schema, and a result breaking the declared output schema arriving
 * as a typed `ToolOutputError` on the client.
 */
import { Client, ToolOutputError, typedClient, type CallToolResult, type McpError } from '@statemcp/client';
import { InMemoryTransport, InvalidArgumentError, InvalidResultError, type JsonRpcError } from '@statemcp/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { Server } from './server.js';

function weatherServer() {
  return new McpServer({ name: 'weather', version: '1.0.0' })
    .withTool('forecast', { inputSchema: { city: z.string(), days: z.number().optional() }, outputSchema: { celsius: z.number(), city: z.string() } }, ({ city }) => ({ celsius: city.length, city }))
    .withTool('ping', {}, (_args, extra) => ({ content: [{ type: 'text', text: `pong at ${extra.protocolVersion}` }] }))
    .withTool('fails', { outputSchema: { n: z.number() } }, () => {
      throw new Error('the backend is down');
    })
    .withPrompt('brief', { argsSchema: { city: z.string(), style: z.string().optional() } }, ({ city, style }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Weather in ${city}${style === undefined ? '' : ` (${style})`}?` } }],
    }))
    .withResource('readme', 'docs://readme', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'Read me' }] }))
    .withResourceTemplate('report', 'weather://{city}/report{?day}', {}, (uri, { city, day }) => ({ contents: [{ uri, text: `${city} on ${day ?? 'today'}` }] }));
}
type WeatherServer = ReturnType<typeof weatherServer>;

async function connected(server: McpServer<unknown> | Server, era: 'auto' | 'legacy'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'typed-client', version: '1.0.0' }, { era });
  await client.connect(clientSide);
  return client;
}

describe('typedClient', () => {
  it('types names, arguments and results from the server type', () => {
    type Weather = ReturnType<typeof typedClient<WeatherServer>>;
    expectTypeOf<Parameters<Weather['tools']['forecast']>[0]>().toEqualTypeOf<{ city: string; days?: number | undefined }>();
    expectTypeOf<Awaited<ReturnType<Weather['tools']['forecast']>>>().toExtend<{ isError?: false; structuredContent: { celsius: number; city: string } } | { isError: true }>();
    expectTypeOf<Awaited<ReturnType<Weather['tools']['ping']>>>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<Parameters<Weather['resources']['report']>[0]>().toEqualTypeOf<{ city: string; day?: string }>();
    const weather = typedClient<WeatherServer>(new Client({ name: 'types', version: '1.0.0' }));
    // Type-level only: these calls are never awaited against a server.
    const typeOnly = (): void => {
      // @ts-expect-error no tool of that name
      void weather.tools.forecats({ city: 'Lyon' });
      // @ts-expect-error city is a string
      void weather.tools.forecast({ city: 42 });
      // @ts-expect-error city is required
      void weather.tools.forecast({});
      // @ts-expect-error ping takes no arguments
      void weather.tools.ping({ loud: true });
      // @ts-expect-error no prompt of that name
      void weather.prompts.forecast({ city: 'Lyon' });
      // @ts-expect-error day is a string
      void weather.resources.report({ city: 'Lyon', day: 3 });
      void weather.tools.forecast({ city: 'Lyon' }).then((result) => {
        if (result.isError) return;
        expectTypeOf(result.structuredContent.celsius).toEqualTypeOf<number>();
        // @ts-expect-error no such field in the output schema
        void result.structuredContent.fahrenheit;
      });
      void weather.tools.forecast.safe({ city: 'Lyon' }).then((outcome) => {
        if (!outcome.ok) expectTypeOf(outcome.error).toEqualTypeOf<JsonRpcError | McpError | ToolOutputError>();
      });
    };
    expect(typeof typeOnly).toBe('function');
  });

  for (const era of ['auto', 'legacy'] as const) {
    it(`calls tools, prompts and resources by name (${era} era)`, async () => {
      const client = await connected(weatherServer(), era);
      const weather = typedClient<WeatherServer>(client);
      const forecast = await weather.tools.forecast({ city: 'Lyon' });
      expect(forecast.isError).not.toBe(true);
      if (forecast.isError !== true) expect(forecast.structuredContent).toEqual({ celsius: 4, city: 'Lyon' });
      expect(forecast.content).toEqual([{ type: 'text', text: '{"celsius":4,"city":"Lyon"}' }]);
      expect((await weather.tools.ping()).content).toEqual([{ type: 'text', text: `pong at ${client.protocolVersion ?? ''}` }]);
      const failed = await weather.tools.fails();
      expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the backend is down' }] });
      expect((await weather.prompts.brief({ city: 'Lyon' })).messages[0]?.content).toEqual({ type: 'text', text: 'Weather in Lyon?' });
      expect((await weather.resources.report({ city: 'Lyon', day: 'monday' })).contents).toEqual([{ uri: 'weather://Lyon/report?day=monday', text: 'Lyon on monday' }]);
      expect((await weather.resources.readme()).contents).toMatchObject([{ uri: 'docs://readme', text: 'Read me' }]);
      const unknown = await (weather.resources as unknown as Record<string, (v: object) => Promise<unknown>> & { gone: { safe: (v: object) => Promise<unknown> } }).gone.safe({});
      expect(unknown).toMatchObject({ ok: false, error: expect.any(InvalidArgumentError) });
      const invalidArgs = await (weather.tools.forecast as unknown as { safe: (a: object) => Promise<unknown> }).safe({ city: 7 });
      expect(invalidArgs).toMatchObject({ ok: true, result: { isError: true } });
      await client.close();
    });
  }

  it('rejects a result that breaks the declared output schema with a ToolOutputError', async () => {
    const server = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
    const outputSchema = { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] };
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'forecast', inputSchema: { type: 'object' }, outputSchema }] }));
    server.setRequestHandler('tools/call', () => ({ content: [{ type: 'text', text: 'warm' }], structuredContent: { celsius: 'warm' } }));
    const client = await connected(server, 'legacy');
    type Definitions = { tools: { forecast: { args: Record<string, never>; structured: { celsius: number } } } };
    const outcome = await typedClient<Definitions>(client).tools.forecast.safe();
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toBeInstanceOf(ToolOutputError);
      expect(outcome.error).toBeInstanceOf(InvalidResultError);
      expect(outcome.error).toMatchObject({ code: 'INVALID_RESULT', tool: 'forecast', structuredContent: { celsius: 'warm' } });
    }
    await client.close();
  });
});

describe('Client#callTool with an outputSchema', () => {
  it('returns structuredContent typed and checked by the schema given', async () => {
    const client = await connected(weatherServer(), 'auto');
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Nice' } }, { outputSchema: z.object({ celsius: z.number(), city: z.string().transform((city) => city.toUpperCase()) }) });
    expectTypeOf(result).toExtend<{ isError?: false; structuredContent: { celsius: number; city: string } } | { isError: true }>();
    expect(result.isError === true ? undefined : result.structuredContent).toEqual({ celsius: 4, city: 'NICE' });
    await expect(client.callTool({ name: 'forecast', arguments: { city: 'Nice' } }, { outputSchema: z.object({ fahrenheit: z.number() }) })).rejects.toMatchObject({
      name: 'ToolOutputError',
      tool: 'forecast',
      problem: expect.stringContaining('fahrenheit'),
    });
    await client.close();
  });
});
