/**
 * The generated module, used: `typedClient` accepts the definitions `statemcp-typegen` wrote
 * (test/generated/schema-cases.ts, compiled under `strict` and `exactOptionalPropertyTypes` by
 * this package's typecheck), and every call is checked against them.
 */
import { Client, typedClient, type CallToolResult } from '@statemcp/client';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { SchemaCases, ShapesResult } from '../test/generated/schema-cases.js';

describe('generated definitions', () => {
  it('type the typed client: names, arguments, results', () => {
    const cases = typedClient<SchemaCases>(new Client({ name: 'types', version: '1.0.0' }));
    type Cases = typeof cases;
    expectTypeOf<Awaited<ReturnType<Cases['tools']['shapes']>>>().toExtend<{ isError?: false; structuredContent: ShapesResult } | { isError: true }>();
    expectTypeOf<Awaited<ReturnType<Cases['tools']['refs']>>>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<Parameters<Cases['prompts']['greet']>[0]>().toEqualTypeOf<{ name: string; style?: string }>();
    expectTypeOf<Parameters<Cases['resources']['file']>[0]>().toEqualTypeOf<{ root: string; path: string[]; rev?: string }>();
    // Type-level only: never called.
    const typeOnly = (): void => {
      void cases.tools.json_schema_2020_12_tool({ name: 'Ada', phone: '555' });
      void cases.tools.json_schema_2020_12_tool({ email: 'ada@example.com', address: { city: 'London' } });
      // @ts-expect-error the 2020-12 schema needs a phone or an email
      void cases.tools.json_schema_2020_12_tool({ name: 'Ada' });
      // @ts-expect-error additionalProperties: false
      void cases.tools.json_schema_2020_12_tool({ phone: '555', fax: '556' });
      // @ts-expect-error contactMethod is an enum
      void cases.tools.json_schema_2020_12_tool({ phone: '555', contactMethod: 'pigeon' });
      void cases.tools.refs({ tree: { label: 'root', children: [{ label: 'leaf' }] }, self: { tree: { label: 'nested' } } });
      // @ts-expect-error a tree node needs its label
      void cases.tools.refs({ tree: { children: [] } });
      void cases.tools.unions({ exactlyOne: { kind: 'a', a: 'x' }, both: { x: 1, y: 2 }, several: true });
      // @ts-expect-error kind "b" carries b, not a
      void cases.tools.unions({ exactlyOne: { kind: 'b', a: 'x' } });
      void cases.tools.nullable({ list: null, openApi: null, pydantic: null });
      // @ts-expect-error exactOptionalPropertyTypes: an optional property is left out, not undefined
      void cases.tools.nullable({ list: [], openApi: undefined });
      void cases.tools.shapes({ 'quoted-key': 'k', pair: ['a', 1], head: ['h', true, false], map: { a: 1 } });
      // @ts-expect-error pair is [string, number]
      void cases.tools.shapes({ 'quoted-key': 'k', pair: [1, 'a'] });
      // @ts-expect-error no tool of that name
      void cases.tools.shape({});
      void cases.tools.shapes({ 'quoted-key': 'k' }).then((result) => {
        if (result.isError) return;
        expectTypeOf(result.structuredContent.points[0]).toEqualTypeOf<{ x: number; y: number } | undefined>();
      });
      void cases.resources.readme();
      // @ts-expect-error root is required
      void cases.resources.file({ path: [] });
    };
    expect(typeof typeOnly).toBe('function');
  });
});
