/**
 * `statemcp-typegen` against real processes over stdio: the official
 * `@modelcontextprotocol/server-everything`, and a raw JSON-RPC server publishing Python-style
 * schemas (nested `$ref`s, `anyOf [T, null]`, a recursive model). The modules it writes match
 * the committed ones in test/generated (which this package's typecheck compiles under `strict`
 * and `exactOptionalPropertyTypes`; `UPDATE_GENERATED=1` rewrites them), the typed client calls
 * both servers through them, and a second run reports what changed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, InvalidResultError, ToolOutputError, typedClient } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { z } from 'zod';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { main } from '../src/index.js';
import type { EverythingDefinitions } from './generated/everything.js';
import type { ShopDefinitions } from './generated/python-style.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const everythingEntry = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const EVERYTHING = ['node', everythingEntry, 'stdio'];
const SHOP = ['node', 'test/fixtures/python-style-server.mjs'];
/** statemcp's conformance server (apps/everything-server), over stdio. */
const CONFORMANCE = ['node', 'node_modules/@statemcp/app-everything-server/bin/everything-server.mjs', '--stdio'];
const scratch = mkdtempSync(join(tmpdir(), 'statemcp-typegen-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the command; returns its exit code and what it printed. */
async function typegen(args: readonly string[]): Promise<{ code: number; printed: string }> {
  const printed: string[] = [];
  const code = await main(args, (line) => printed.push(line), (line) => printed.push(line));
  return { code, printed: printed.join('\n') };
}

/** The module text without its first line (which names the command, paths included). */
const body = (text: string): string => text.slice(text.indexOf('\n') + 1);

async function connect(command: readonly string[]): Promise<Client> {
  const [program = 'node', ...args] = command;
  const client = new Client({ name: 'typed-client', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: program, args, cwd: packageRoot, stderr: 'pipe' }));
  return client;
}

describe('statemcp-typegen', () => {
  for (const [label, command, committed, typeName] of [
    ['server-everything', EVERYTHING, 'everything.ts', 'EverythingDefinitions'],
    ['the Python-style server', SHOP, 'python-style.ts', 'ShopDefinitions'],
  ] as const) {
    it(`writes the committed module for ${label}`, async () => {
      const out = join(scratch, committed);
      const run = await typegen(['--out', out, '--name', typeName, '--', ...command]);
      expect(run).toMatchObject({ code: 0, printed: expect.stringContaining('no earlier manifest') });
      const committedPath = join(packageRoot, 'test/generated', committed);
      if (process.env.UPDATE_GENERATED === '1') writeFileSync(committedPath, readFileSync(out, 'utf8'));
      expect(body(readFileSync(out, 'utf8'))).toBe(body(readFileSync(committedPath, 'utf8')));
      // Unchanged server: nothing to report, and --check passes.
      expect(await typegen(['--out', out, '--name', typeName, '--', ...command])).toMatchObject({ code: 0, printed: expect.stringContaining('no definition changed') });
      expect((await typegen(['--check', '--out', out, '--name', typeName, '--', ...command])).code).toBe(0);
    });
  }

  it('reports what changed when the server changed, and --check fails until the module is written', async () => {
    const out = join(scratch, 'shop-changes.ts');
    await typegen(['--out', out, '--name', 'Shop', '--', ...SHOP]);
    const check = await typegen(['--check', '--out', out, '--name', 'Shop', '--', ...SHOP, '--variant=2']);
    expect(check.code).toBe(1);
    const run = await typegen(['--out', out, '--name', 'Shop', '--', ...SHOP, '--variant=2']);
    expect(run.code).toBe(0);
    expect(run.printed.split('\n').slice(1).map((line) => line.trim())).toEqual(['+ tool lookup', '~ tool place_order: input schema', '- tool legacy_lookup']);
    expect(readFileSync(out, 'utf8')).toContain('priority?: boolean;');
  });

  it('types the JSON Schema 2020-12 tool of the conformance suite’s server as the schema cases expect', async () => {
    const out = join(scratch, 'conformance.ts');
    expect((await typegen(['--out', out, '--', ...CONFORMANCE])).code).toBe(0);
    const declaration = (text: string) => /export type JsonSchema202012ToolArgs = [\s\S]*?\n\}\);\n/.exec(text)?.[0];
    const live = declaration(readFileSync(out, 'utf8'));
    expect(live).toContain('contactMethod?: "phone" | "email";');
    expect(live).toBe(declaration(readFileSync(join(packageRoot, 'test/generated/schema-cases.ts'), 'utf8')));
  });

  it('reads a server over Streamable HTTP (--url)', async () => {
    const weather = () =>
      new McpServer({ name: 'http-weather', version: '1.0.0' })
        .withTool('forecast', { inputSchema: { city: z.string() }, outputSchema: { celsius: z.number().nullable() } }, () => ({ celsius: null }))
        .withResourceTemplate('report', 'weather://{city}/report', {}, (uri) => ({ contents: [{ uri, text: 'mild' }] }));
    const http = await createStreamableHttpServer({ connect: (transport) => weather().connect(transport) }).listen({ port: 0, host: '127.0.0.1' });
    try {
      const out = join(scratch, 'http-weather.ts');
      const run = await typegen(['--out', out, '--name', 'Weather', '--url', http.url.href]);
      expect(run.code).toBe(0);
      const code = readFileSync(out, 'utf8');
      expect(code).toContain('forecast: { args: ForecastArgs; structured: ForecastResult };');
      expect(code).toContain('export type ForecastResult = {\n  celsius: number | null;\n};');
      expect(code).toContain('report: { uriTemplate: "weather://{city}/report"; variables: UriTemplateVariables<"weather://{city}/report"> };');
    } finally {
      await http.close();
    }
  });

  it('refuses a bad command line and a server that cannot be reached, with exit code 1', async () => {
    expect(await typegen(['--', 'node'])).toMatchObject({ code: 1, printed: expect.stringContaining('--out is required') });
    expect(await typegen(['--out', join(scratch, 'x.ts'), '--url', 'ftp://nope'])).toMatchObject({ code: 1, printed: expect.stringContaining('--url must be an http(s) URL') });
    expect(await typegen(['--out', join(scratch, 'x.ts'), '--', 'node', '-e', 'process.exit(3)'])).toMatchObject({ code: 1, printed: expect.stringContaining('statemcp-typegen:') });
  });
});

describe('typedClient with generated definitions', () => {
  it('calls server-everything: structured results typed and checked', async () => {
    const client = await connect(EVERYTHING);
    const everything = typedClient<EverythingDefinitions>(client);
    expect((await everything.tools.echo({ message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    const weather = await everything.tools['get-structured-content']({ location: 'Chicago' });
    if (weather.isError === true) throw new Error('get-structured-content failed');
    expectTypeOf(weather.structuredContent.temperature).toEqualTypeOf<number>();
    expect(typeof weather.structuredContent.temperature).toBe('number');
    expect((await everything.tools['get-sum']({ a: 2, b: 3 })).content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('5') });
    expect((await everything.prompts['args-prompt']({ city: 'Lyon' })).messages.length).toBeGreaterThan(0);
    const dynamic = await everything.resources['Dynamic Text Resource']({ resourceId: '7' });
    expect(dynamic.contents[0]?.uri).toBe('demo://resource/dynamic/text/7');
    // @ts-expect-error location is one of three cities
    const refused = await everything.tools['get-structured-content'].safe({ location: 'Paris' });
    expect(refused.ok === false || refused.result.isError === true).toBe(true);
    await client.close();
  });

  it('calls the Python-style server: nested $ref arguments and results, and a broken output schema as a typed error', async () => {
    const client = await connect(SHOP);
    const shop = typedClient<ShopDefinitions>(client);
    const order = await shop.tools.place_order({ items: [{ sku: 'tea', quantity: 2, gift: { sku: 'cup', gift: null } }], shipping: { street: '1 rue', city: 'Lyon', country: 'FR' } });
    if (order.isError === true) throw new Error('place_order failed');
    expect(order.structuredContent).toEqual({ order_id: 'o-lyon', lines: [{ sku: 'tea', price: 20 }], status: 'accepted', total: 20 });
    expectTypeOf(order.structuredContent.status).toEqualTypeOf<'accepted' | 'backordered'>();
    const broken = await shop.tools.broken_output.safe();
    expect(broken.ok).toBe(false);
    if (!broken.ok) {
      expect(broken.error).toBeInstanceOf(ToolOutputError);
      expect(broken.error).toBeInstanceOf(InvalidResultError);
      expect(broken.error).toMatchObject({ tool: 'broken_output', structuredContent: { count: 'many' } });
    }
    expect((await shop.prompts.summarize({ order_id: 'o-1' })).messages[0]?.content).toEqual({ type: 'text', text: 'Summarize order o-1 (plain)' });
    expect((await shop.resources.order({ order_id: 'o-1', lines: 'all' })).contents[0]?.uri).toBe('shop://orders/o-1?lines=all');
    expect((await shop.resources.catalog()).contents[0]?.uri).toBe('shop://catalog');
    // @ts-expect-error a country is FR, DE or US
    void shop.tools.place_order.safe({ items: [], shipping: { street: 's', city: 'c', country: 'UK' } });
    await client.close();
  });
});
