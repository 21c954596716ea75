/**
 * Handlers typed from their schemas (type level, checked by `tsc` over the test files, plus
 * the run-time behaviour the types promise): a tool's result from its `outputSchema`, its
 * arguments from its `inputSchema`, a prompt's arguments from `argsSchema`, a template's
 * variables from its RFC 6570 text, and the definitions an `McpServer` built with `with…` carries.
 */
import type { DefinitionsOf } from '@statemcp/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { defineTool } from './tool-definitions.js';
import { initializedClient } from './test-harness.js';
import type { CallToolResult } from './wire-types.js';

const INFO = { name: 'typed', version: '1.0.0' };

describe('McpServer typed handlers', () => {
  describe('#registerTool', () => {
    it('types the result from the outputSchema and accepts the structured value alone', () => {
      const server = new McpServer(INFO);
      server.registerTool('sum', { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } }, ({ a, b }) => {
        expectTypeOf(a).toEqualTypeOf<number>();
        return { sum: a + b };
      });
      server.registerTool('full', { outputSchema: z.object({ sum: z.number() }) }, async () => ({ content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } }));
      server.registerTool('failing', { outputSchema: { sum: z.number() } }, () => ({ content: [{ type: 'text', text: 'down' }], isError: true }));
      // @ts-expect-error the structured value breaks the output schema
      server.registerTool('wrong-bare', { outputSchema: { sum: z.number() } }, () => ({ sum: 'three' }));
      // @ts-expect-error structuredContent breaks the output schema
      server.registerTool('wrong-full', { outputSchema: { sum: z.number() } }, () => ({ content: [], structuredContent: { total: 3 } }));
      // @ts-expect-error a successful full result needs structuredContent
      server.registerTool('missing', { outputSchema: { sum: z.number() } }, () => ({ content: [] }));
      // @ts-expect-error the argument is a number
      server.registerTool('bad-arg', { inputSchema: { a: z.number() } }, ({ a }: { a: string }) => ({ content: [{ type: 'text', text: a }] }));
      expect(server.capabilities().tools).toEqual({ listChanged: true });
    });

    it('keeps full CallToolResults compiling, with or without an output schema', () => {
      const server = new McpServer(INFO);
      const result: CallToolResult = { content: [{ type: 'text', text: 'ok' }] };
      server.registerTool('plain', {}, () => result);
      server.registerTool('json-output', { outputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, () => ({ ...result, structuredContent: { n: 1 } }));
      // A schema with a top-level `content` property takes full results only.
      // @ts-expect-error the bare value would read as a full result
      server.registerTool('content-shaped', { outputSchema: { content: z.string() } }, () => ({ content: 'x' }));
      server.registerTool('content-shaped-full', { outputSchema: { content: z.string() } }, () => ({ content: [], structuredContent: { content: 'x' } }));
      expect(server.capabilities().tools).toBeDefined();
    });

    it('derives the text content from a structured value returned alone (2025-06-18)', async () => {
      const server = new McpServer(INFO);
      server.registerTool('sum', { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } }, ({ a, b }) => ({ sum: a + b }));
      server.registerTool('wrong', { outputSchema: { sum: z.number() } }, (() => ({ sum: 'x' })) as never);
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'sum', arguments: { a: 1, b: 2 } })).resolves.toEqual({
        content: [{ type: 'text', text: '{"sum":3}' }],
        structuredContent: { sum: 3 },
      });
      await expect(test.client.request('tools/call', { name: 'wrong', arguments: {} })).rejects.toMatchObject({ code: -32603 });
    });
  });

  describe('#registerPrompt and #registerResourceTemplate', () => {
    it('types prompt arguments from argsSchema and template variables from the template text', () => {
      const server = new McpServer(INFO);
      server.registerPrompt('review', { argsSchema: { code: z.string(), tone: z.string().optional() } }, (args) => {
        expectTypeOf(args).toEqualTypeOf<{ code: string; tone?: string | undefined }>();
        return { messages: [] };
      });
      server.registerResourceTemplate('file', 'files://{root}{/path*}{?rev,format}', {}, (uri, variables) => {
        expectTypeOf(variables).toEqualTypeOf<{ path: string[]; root: string; rev?: string; format?: string }>();
        return { contents: [{ uri, text: variables.root }] };
      });
      server.registerResourceTemplate('reserved', 'docs://{+base}/x{.ext}/y{;v}', {}, (uri, variables) => {
        expectTypeOf(variables).toEqualTypeOf<{ base: string; ext?: string; v?: string }>();
        return { contents: [] };
      });
      expect(server.capabilities().prompts).toBeDefined();
    });
  });

  describe('#withTool', () => {
    it('carries every registration in the server type', () => {
      const server = new McpServer(INFO)
        .withTool('forecast', { inputSchema: { city: z.string() }, outputSchema: { celsius: z.number() } }, ({ city }) => ({ celsius: city.length }))
        .withTool('ping', {}, () => ({ content: [] }))
        .withPrompt('brief', { argsSchema: { city: z.string() } }, ({ city }) => ({ messages: [{ role: 'user', content: { type: 'text', text: city } }] }))
        .withResource('readme', 'docs://readme', {}, (uri) => ({ contents: [{ uri, text: '#' }] }))
        .withResourceTemplate('report', 'weather://{city}/report{?day}', {}, (uri, { city }) => ({ contents: [{ uri, text: city }] }));
      type Definitions = DefinitionsOf<typeof server>;
      expectTypeOf<Definitions['tools']['forecast']>().toEqualTypeOf<{ readonly args: { city: string }; readonly structured: { celsius: number } }>();
      expectTypeOf<Definitions['tools']['ping']['structured']>().toEqualTypeOf<undefined>();
      expectTypeOf<Definitions['prompts']['brief']['args']>().toEqualTypeOf<{ city: string }>();
      expectTypeOf<Definitions['resources']['report']>().toEqualTypeOf<{ readonly uriTemplate: 'weather://{city}/report{?day}'; readonly variables: { city: string; day?: string } }>();
      expectTypeOf<Definitions['resources']['readme']['uriTemplate']>().toEqualTypeOf<'docs://readme'>();
      // @ts-expect-error a with… handler is checked like registerTool's
      new McpServer(INFO).withTool('bad', { outputSchema: { n: z.number() } }, () => ({ n: '1' }));
      expect(Object.keys(server)).not.toContain('~definitions');
      expect(server.capabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    });
  });

  describe('#withTools', () => {
    it('registers tools made with defineTool under their keys, typed like withTool', async () => {
      const forecast = defineTool({ inputSchema: { city: z.string() }, outputSchema: { celsius: z.number() } }, ({ city }) => ({ celsius: city.length }));
      const ping = defineTool({}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
      // @ts-expect-error the structured value breaks the output schema
      defineTool({ outputSchema: { celsius: z.number() } }, () => ({ celsius: 'warm' }));
      // The builder form keeps literals: an enum member needs no `as const`.
      const sky = defineTool({ inputSchema: { hour: z.number() }, outputSchema: { sky: z.enum(['day', 'night']) } }).handle(({ hour }) => ({ sky: hour < 18 ? 'day' : 'night' }));
      // @ts-expect-error not a member of the enum
      defineTool({ outputSchema: { sky: z.enum(['day', 'night']) } }).handle(() => ({ sky: 'dusk' }));
      const server = new McpServer(INFO).withTools({ forecast, ping, sky }).withPrompt('brief', {}, () => ({ messages: [] }));
      type Definitions = DefinitionsOf<typeof server>;
      expectTypeOf<Definitions['tools']['forecast']>().toEqualTypeOf<{ readonly args: { city: string }; readonly structured: { celsius: number } }>();
      expectTypeOf<Definitions['tools']['ping']['structured']>().toEqualTypeOf<undefined>();
      expectTypeOf<keyof Definitions['prompts']>().toEqualTypeOf<'brief'>();
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'forecast', arguments: { city: 'Lyon' } })).resolves.toMatchObject({ structuredContent: { celsius: 4 } });
      await expect(test.client.request('tools/call', { name: 'ping', arguments: {} })).resolves.toEqual({ content: [{ type: 'text', text: 'pong' }] });
      await expect(test.client.request('tools/call', { name: 'sky', arguments: { hour: 20 } })).resolves.toMatchObject({ structuredContent: { sky: 'night' } });
      expectTypeOf<Definitions['tools']['sky']['structured']>().toEqualTypeOf<{ sky: 'day' | 'night' }>();
    });
  });
});
