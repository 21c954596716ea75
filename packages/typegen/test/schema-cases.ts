/**
 * The JSON Schema cases the generator is tested on, as one server listing: the JSON Schema
 * 2020-12 input schema of the conformance suite's `json-schema-2020-12` scenario (the one
 * `apps/everything-server` registers as `json_schema_2020_12_tool`), and one tool per feature.
 * `test/generated/schema-cases.ts` is what the generator writes for it; the package's
 * typecheck compiles that module under `strict` and `exactOptionalPropertyTypes`.
 */
import type { ServerListing } from '../src/index.js';

/** The conformance suite's JSON Schema 2020-12 input schema (SEP-1613), keyword for keyword. */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const object = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({ type: 'object', properties, required, ...extra });

/** One tool per feature of the converter. */
export const SCHEMA_CASES: ServerListing = {
  server: { name: 'schema-cases', version: '1.0.0' },
  tools: [
    { name: 'json_schema_2020_12_tool', inputSchema: JSON_SCHEMA_2020_12 },
    {
      name: 'refs',
      description: 'References: $defs, nested $defs, an $anchor, a JSON Pointer into properties, recursion, a reference outside the document.',
      inputSchema: {
        type: 'object',
        $defs: {
          tree: object({ label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/tree' } } }, ['label']),
          outer: { type: 'object', $defs: { inner: { type: 'integer' } }, properties: { value: { $ref: '#/$defs/outer/$defs/inner' } } },
          'odd/name': { $anchor: 'odd', type: 'boolean' },
        },
        properties: {
          tree: { $ref: '#/$defs/tree' },
          outer: { $ref: '#/$defs/outer' },
          odd: { $ref: '#odd' },
          escaped: { $ref: '#/$defs/odd~1name' },
          sameAsTree: { $ref: '#/properties/tree' },
          self: { $ref: '#' },
          remote: { $ref: 'https://example.com/schemas/thing.json' },
        },
        required: ['tree'],
      },
    },
    {
      name: 'unions',
      inputSchema: object(
        {
          either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
          exactlyOne: { oneOf: [object({ kind: { const: 'a' }, a: { type: 'string' } }, ['kind', 'a']), object({ kind: { const: 'b' }, b: { type: 'number' } }, ['kind', 'b'])] },
          both: { allOf: [object({ x: { type: 'number' } }, ['x']), object({ y: { type: 'number' } }, ['y'])] },
          several: { type: ['string', 'integer', 'boolean'] },
        },
        ['exactlyOne'],
      ),
    },
    {
      name: 'enums',
      inputSchema: object({
        level: { enum: ['debug', 'info', 3, true, null] },
        fixed: { const: 'v1' },
        when: { type: 'string', format: 'date-time', description: 'An instant (RFC 3339)' },
        site: { type: 'string', format: 'uri' },
        comment: { type: 'string', description: 'Ends a comment */ early' },
        old: { type: 'string', deprecated: true },
      }),
    },
    {
      name: 'nullable',
      inputSchema: object({ list: { type: ['array', 'null'], items: { type: 'string' } }, openApi: { type: 'number', nullable: true }, pydantic: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null } }, ['list']),
    },
    {
      name: 'shapes',
      inputSchema: object(
        {
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
          head: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
          draft7Tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
          map: { type: 'object', additionalProperties: { type: 'integer' } },
          patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
          open: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: true },
          closedEmpty: { type: 'object', additionalProperties: false },
          anything: {},
          nothing: false,
          'quoted-key': { type: 'string' },
        },
        ['quoted-key'],
      ),
      outputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        definitions: { point: object({ x: { type: 'number' }, y: { type: 'number' } }, ['x', 'y']) },
        properties: { points: { type: 'array', items: { $ref: '#/definitions/point' } } },
        required: ['points'],
      },
    },
  ],
  prompts: [{ name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', required: true, description: 'Who to greet' }, { name: 'style' }] }],
  resources: [{ name: 'readme', uri: 'docs://readme' }],
  resourceTemplates: [{ name: 'file', uriTemplate: 'files://{root}{/path*}{?rev}' }],
};
