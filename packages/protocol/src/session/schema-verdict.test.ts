import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { getRevision, supportedVersions } from '../revisions/registry.js';
import { sealJson } from '../jsonrpc/clone-json.js';
import { FAIL, PASS, UNKNOWN, parseWithSchema, verdictOf, type Verdict } from './schema-verdict.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0', title: 'Bench' },
  progressToken: 7,
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
};

/** Valid messages of the hot methods, per method: what the corpus mutates. */
const BASES: Record<string, { params: unknown[]; result: unknown[] }> = {
  'tools/call': {
    params: [
      { name: 'echo', arguments: { text: 'hello', n: 1 } },
      { name: 'echo', arguments: {}, _meta: { progressToken: 'p-1' } },
      { name: 'echo', arguments: { text: 'hello' }, _meta: MODERN_META },
    ],
    result: [
      { content: [{ type: 'text', text: 'hello' }] },
      { resultType: 'complete', content: [{ type: 'text', text: 'hello', annotations: { audience: ['user'], priority: 0.5 } }], isError: false },
      { content: [{ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }, { type: 'resource', resource: { uri: 'file:///a', text: 'a' } }], structuredContent: { a: 1 } },
      { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } } } },
    ],
  },
  'tools/list': {
    params: [{}, { cursor: 'c1' }, { _meta: MODERN_META }],
    result: [{ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }], nextCursor: 'n' }],
  },
  ping: { params: [{}, { _meta: MODERN_META }], result: [{}] },
};

const REPLACEMENTS: unknown[] = [null, 0, -1, 1.5, Number.NaN, 'x', '', true, [], {}, [1], { x: 1 }];

/** The base, then every member at every depth removed, replaced by each of REPLACEMENTS, and an extra key added to every object. */
function* mutations(value: unknown): Generator<unknown> {
  yield value;
  for (const replacement of REPLACEMENTS) yield replacement;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      yield value.filter((_, j) => j !== i);
      for (const inner of mutations(value[i])) yield value.map((item, j) => (j === i ? inner : item));
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  yield { ...record, extraKey: 'kept?' };
  for (const key of Object.keys(record)) {
    const { [key]: _removed, ...rest } = record;
    yield rest;
    for (const inner of mutations(record[key])) yield { ...record, [key]: inner };
  }
}

/** A classic or a `zod/mini` schema (the revisions use either). */
type AnySchema = $ZodType & { safeParse(value: unknown): { success: boolean; data?: unknown } };

function agreesWithZod(schema: AnySchema, value: unknown): { verdict: Verdict; ok: boolean } {
  const verdict = verdictOf(schema, value);
  const parsed = schema.safeParse(value);
  if (verdict === PASS) return { verdict, ok: parsed.success && isDeepStrictEqual(parsed.data, value) };
  if (verdict === FAIL) return { verdict, ok: !parsed.success };
  return { verdict, ok: true };
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toStrictEqual(b);
    return true;
  } catch {
    return false;
  }
}

describe('verdictOf', () => {
  for (const version of supportedVersions()) {
    const revision = getRevision(version);
    if (revision === undefined) continue;
    for (const [method, bases] of Object.entries(BASES)) {
      const spec = revision.requests[method];
      if (spec === undefined) continue;
      it(`agrees with zod on generated ${method} params and results (${version})`, () => {
        const counts = { [PASS]: 0, [FAIL]: 0, [UNKNOWN]: 0 };
        const disagreements: unknown[] = [];
        for (const [schema, values] of [[spec.params, bases.params], [spec.result, bases.result]] as const) {
          for (const base of values) {
            for (const value of mutations(base)) {
              const { verdict, ok } = agreesWithZod(schema, value);
              counts[verdict]++;
              if (!ok) disagreements.push(value);
            }
          }
        }
        expect(disagreements).toEqual([]);
        // The corpus exercises both claims, not only the fallback.
        expect(counts[PASS]).toBeGreaterThan(0);
        expect(counts[FAIL]).toBeGreaterThan(counts[UNKNOWN]);
      });
    }
  }

  const NOTIFICATIONS: Record<string, unknown[]> = {
    'notifications/cancelled': [{ requestId: 3, reason: 'timeout' }, { requestId: 'r-1' }],
    'notifications/progress': [{ progressToken: 1, progress: 0.5, total: 1, message: 'half' }, { progressToken: 'p', progress: 2 }],
  };
  for (const version of supportedVersions()) {
    const revision = getRevision(version);
    if (revision === undefined) continue;
    for (const [method, bases] of Object.entries(NOTIFICATIONS)) {
      const spec = revision.notifications[method];
      if (spec === undefined) continue;
      it(`agrees with zod on generated ${method} params, null ids included (${version})`, () => {
        const disagreements: unknown[] = [];
        let passed = 0;
        for (const base of bases) {
          for (const value of mutations(base)) {
            const { verdict, ok } = agreesWithZod(spec.params, value);
            if (verdict === PASS) passed++;
            if (!ok) disagreements.push(value);
          }
        }
        expect(disagreements).toEqual([]);
        expect(passed).toBeGreaterThan(0);
      });
    }
  }

  it('passes the hot shapes of 2026-07-28 without zod: tools/call params with the per-request _meta, and its result', () => {
    const spec = getRevision('2026-07-28')?.requests['tools/call'];
    expect(spec).toBeDefined();
    if (spec === undefined) return;
    expect(verdictOf(spec.params, { name: 'echo', arguments: { text: 'hello' }, _meta: MODERN_META })).toBe(PASS);
    // The per-request _meta is required in this revision (MCP 2026-07-28 basic/index §_meta).
    expect(verdictOf(spec.params, { name: 'echo', arguments: { text: 'hello' } })).toBe(FAIL);
    expect(verdictOf(spec.result, { resultType: 'complete', content: [{ type: 'text', text: 'hello' }] })).toBe(PASS);
  });

  it('remembers that a sealed value passed, and walks any other value', () => {
    const schema = z.looseObject({ version: z.string() });
    const sealed = sealJson({ version: '2026-07-28' });
    expect(verdictOf(schema, sealed)).toBe(PASS);
    expect(verdictOf(schema, sealed)).toBe(PASS);
    expect(verdictOf(schema, { version: 1 })).toBe(FAIL);
    expect(verdictOf(schema, sealed)).toBe(PASS);
    // A sealed value that fails is not remembered, nor is an unsealed one that passed.
    const bad = sealJson({ version: 2 });
    expect(verdictOf(schema, bad)).toBe(FAIL);
    expect(verdictOf(schema, bad)).toBe(FAIL);
    const plain = { version: 'x' };
    expect(verdictOf(schema, plain)).toBe(PASS);
    plain.version = 3 as unknown as string;
    expect(verdictOf(schema, plain)).toBe(FAIL);
  });

  it('keeps extra keys of a loose object and leaves a stripped one to zod', () => {
    expect(verdictOf(z.looseObject({ a: z.string() }), { a: 'x', b: 1 })).toBe(PASS);
    expect(verdictOf(z.object({ a: z.string() }), { a: 'x', b: 1 })).toBe(UNKNOWN);
    expect(verdictOf(z.object({ a: z.string() }), { a: 1, b: 1 })).toBe(FAIL);
    expect(verdictOf(z.strictObject({ a: z.string() }), { a: 'x', b: 1 })).toBe(FAIL);
  });

  it('runs zod\'s own checks and leaves refinements, transforms and defaults to zod', () => {
    expect(verdictOf(z.string().min(1), '')).toBe(FAIL);
    expect(verdictOf(z.int(), 1.5)).toBe(FAIL);
    expect(verdictOf(z.int(), 2)).toBe(PASS);
    expect(verdictOf(z.number().min(0).max(1), 1.5)).toBe(FAIL);
    expect(verdictOf(z.url(), 'not a url')).toBe(FAIL);
    expect(verdictOf(z.string().refine((text) => text.length > 2), 'abc')).toBe(UNKNOWN);
    expect(verdictOf(z.string().refine((text) => text.length > 2), 1)).toBe(FAIL);
    expect(verdictOf(z.string().transform((text) => text.length), 'abc')).toBe(UNKNOWN);
    expect(verdictOf(z.object({ a: z.string().default('x') }), {})).toBe(UNKNOWN);
    expect(verdictOf(z.string().trim(), ' a ')).toBe(UNKNOWN);
  });

  it('follows zod on absent members, null ids and the first accepting union option', () => {
    const id = z.union([z.string(), z.int()]);
    expect(verdictOf(id, null)).toBe(FAIL);
    expect(verdictOf(z.object({ id }), {})).toBe(FAIL);
    expect(verdictOf(z.object({ id: id.optional() }), {})).toBe(PASS);
    expect(verdictOf(z.object({ data: z.unknown() }), {})).toBe(z.object({ data: z.unknown() }).safeParse({}).success ? PASS : FAIL);
    // An earlier option that would strip wins in zod: not PASS here.
    expect(verdictOf(z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string() })]), { a: 'x', b: 1 })).toBe(UNKNOWN);
  });

  it('copes with a schema that reaches itself', () => {
    interface Tree { children: Tree[] }
    const Tree: z.ZodType<Tree> = z.looseObject({
      get children() {
        return z.array(Tree);
      },
    });
    const value = { children: [{ children: [] }] };
    expect([PASS, UNKNOWN]).toContain(verdictOf(Tree, value));
    expect(verdictOf(Tree, { children: [{ children: 1 }] })).not.toBe(PASS);
  });
});

describe('parseWithSchema', () => {
  it('returns the value itself when the verdict passes, and zod\'s error text otherwise', () => {
    const schema = z.looseObject({ name: z.string() });
    const value = { name: 'echo' };
    const passed = parseWithSchema(schema, value);
    expect(passed.success && passed.data).toBe(value);
    const failed = parseWithSchema(schema, { name: 1 });
    const zod = schema.safeParse({ name: 1 });
    expect(!failed.success && failed.error.message).toBe(!zod.success && zod.error.message);
  });
});
