import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_CASES, JSON_SCHEMA_2020_12 } from '../test/schema-cases.js';
import { generateModule } from './generate-module.js';
import { pascalCase, schemaToTypeScript, TypeDeclarations } from './json-schema-to-ts.js';

const CASES_MODULE = new URL('../test/generated/schema-cases.ts', import.meta.url);

function convert(schema: unknown, name = 'Root'): string {
  const declarations = new TypeDeclarations();
  schemaToTypeScript(schema, name, declarations);
  return declarations.code;
}

describe('schemaToTypeScript', () => {
  it('converts the conformance suite’s JSON Schema 2020-12 input schema: $defs, $anchor, enum, allOf/anyOf', () => {
    const code = convert(JSON_SCHEMA_2020_12, 'Contact');
    expect(code).toContain('export type Contact = {\n  name?: string;\n  address?: ContactAddress;\n  contactMethod?: "phone" | "email";');
    expect(code).toContain('} & ({\n  phone: unknown;\n} | {\n  email: unknown;\n});');
    expect(code).toContain('export type ContactAddress = {\n  street?: string;\n  city?: string;\n};');
  });

  it('names $defs at any depth and resolves anchors, escaped pointers, recursion and the root', () => {
    const refs = SCHEMA_CASES.tools.find((tool) => tool.name === 'refs')?.inputSchema;
    const code = convert(refs, 'Refs');
    expect(code).toContain('export type RefsTree = {\n  label: string;\n  children?: RefsTree[];\n};');
    expect(code).toContain('value?: RefsInner;');
    expect(code).toContain('export type RefsInner = number;');
    expect(code).toContain('odd?: RefsOddName;');
    expect(code).toContain('escaped?: RefsOddName;');
    expect(code).toContain('sameAsTree?: RefsTree;');
    expect(code).toContain('self?: Refs;');
    expect(code).toContain('remote?: unknown;');
  });

  it('writes unions, intersections, type lists, enums, consts and nullable forms', () => {
    const code = convert({
      type: 'object',
      properties: {
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        both: { allOf: [{ type: 'object', properties: { x: { type: 'number' } }, required: ['x'] }, { type: 'object', properties: { y: { type: 'string' } } }] },
        list: { type: ['array', 'null'], items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
        level: { enum: ['a', 1, false, null] },
        fixed: { const: 'v1' },
        openApi: { type: 'integer', nullable: true },
      },
    });
    expect(code).toContain('either?: string | number;');
    expect(code).toContain('both?: {\n    x: number;\n  } & {\n    y?: string;\n  };');
    expect(code).toContain('list?: (string | number)[] | null;');
    expect(code).toContain('level?: "a" | 1 | false | null;');
    expect(code).toContain('fixed?: "v1";');
    expect(code).toContain('openApi?: number | null;');
  });

  it('writes tuples, maps, pattern properties, open and closed objects, and boolean schemas', () => {
    const shapes = SCHEMA_CASES.tools.find((tool) => tool.name === 'shapes')?.inputSchema;
    const code = convert(shapes, 'Shapes');
    expect(code).toContain('pair?: [string, number];');
    expect(code).toContain('head?: [string, ...boolean[]];');
    expect(code).toContain('draft7Tuple?: [string, number];');
    expect(code).toContain('map?: { [key: string]: number };');
    expect(code).toContain('patterned?: { [key: string]: string };');
    expect(code).toContain('open?: {\n    id: string;\n  } & { [key: string]: unknown };');
    expect(code).toContain('closedEmpty?: Record<string, never>;');
    expect(code).toContain('anything?: unknown;');
    expect(code).toContain('nothing?: never;');
    expect(code).toContain('"quoted-key": string;');
  });

  it('keeps descriptions, formats, defaults and deprecation as doc comments, with */ escaped', () => {
    const code = convert(SCHEMA_CASES.tools.find((tool) => tool.name === 'enums')?.inputSchema, 'Enums');
    expect(code).toContain('  /**\n   * An instant (RFC 3339)\n   * @format date-time\n   */\n  when?: string;');
    expect(code).toContain('/** @format uri */\n  site?: string;');
    expect(code).toContain('/** Ends a comment *\\/ early */');
    expect(code).toContain('/** @deprecated */\n  old?: string;');
  });

  it('makes type names from any tool name, avoiding clashes and built-in names', () => {
    expect(pascalCase('get-weather')).toBe('GetWeather');
    expect(pascalCase('2fa.check')).toBe('T2faCheck');
    expect(pascalCase('record')).toBe('RecordType');
    const declarations = new TypeDeclarations();
    expect([declarations.reserve('a b'), declarations.reserve('a-b'), declarations.reserve('A_B')]).toEqual(['AB', 'AB2', 'AB3']);
  });
});

describe('generateModule', () => {
  it('writes test/generated/schema-cases.ts exactly (UPDATE_GENERATED=1 rewrites it)', () => {
    const { code } = generateModule(SCHEMA_CASES, { typeName: 'SchemaCases' });
    if (process.env.UPDATE_GENERATED === '1') writeFileSync(CASES_MODULE, code);
    expect(code).toBe(readFileSync(CASES_MODULE, 'utf8'));
  });

  it('gathers tools, prompts and resources in one definitions interface with a manifest', () => {
    const { code, manifest } = generateModule(SCHEMA_CASES, { typeName: 'SchemaCases' });
    expect(code).toContain("import type { UriTemplateVariables } from '@statemcp/client';");
    expect(code).toContain('    shapes: { args: ShapesArgs; structured: ShapesResult };');
    expect(code).toContain('    refs: { args: RefsArgs; structured: undefined };');
    expect(code).toContain('readme: { uriTemplate: "docs://readme"; variables: Record<string, never> };');
    expect(code).toContain('file: { uriTemplate: "files://{root}{/path*}{?rev}"; variables: UriTemplateVariables<"files://{root}{/path*}{?rev}"> };');
    expect(Object.keys(manifest.tools)).toEqual(SCHEMA_CASES.tools.map((tool) => tool.name));
    expect(manifest.tools.refs?.output).toBeNull();
  });
});
