/**
 * The seeded malformed-input generator of the fault suite. Every case is one frame (a stdio
 * line without its newline, or an HTTP POST body) and the answer the spec requires for it,
 * decided here from how the case was built — never by asking the implementation's own
 * classifier:
 *
 * - `reply`: a request whose id can be read (a string or a safe integer) gets exactly one
 *   response carrying that id, whatever else is wrong with it (JSON-RPC 2.0 §5; MCP basic);
 * - `null-id-error`: unparseable JSON, non-objects, batches in a revision without batching,
 *   and requests whose id cannot be read get exactly one error response with `"id": null`
 *   (JSON-RPC 2.0 §5: "If there was an error in detecting the id … it MUST be Null");
 * - `silent`: notifications and responses are never answered;
 * - `too-large` (HTTP only): a body over the server's limit is refused with 413.
 *
 * The fuzz session has negotiated 2025-11-25, which has no JSON-RPC batching.
 */
import type { RequestId } from '@statemcp/protocol';
import { SeededRandom } from './prng.js';

export type Expectation =
  | { readonly kind: 'reply'; readonly id: RequestId }
  | { readonly kind: 'null-id-error' }
  | { readonly kind: 'silent' }
  | { readonly kind: 'too-large' };

export type FuzzTarget = 'stdio' | 'http';

export const CATEGORIES = [
  'invalid-json',
  'truncated',
  'non-object',
  'bad-id',
  'wrong-member-types',
  'bad-meta',
  'unknown-method',
  'known-method-bad-params',
  'response',
  'batch',
  'deep-nesting',
  'oversized',
  'no-session',
] as const;

export type Category = (typeof CATEGORIES)[number];

export interface FuzzCase {
  /** Position in the generated list; replay a failure with the same seed and this index. */
  readonly index: number;
  readonly category: Category;
  readonly frame: string;
  readonly expect: Expectation;
  /** HTTP only: send without the `Mcp-Session-Id` header. */
  readonly withoutSession?: true;
}

export interface GenerateOptions {
  readonly seed: number;
  readonly count: number;
  readonly target: FuzzTarget;
  /** HTTP only: the server's body limit; `oversized` cases go past it. Default 4 MiB. */
  readonly maxBodyBytes?: number;
}

type Draft = Omit<FuzzCase, 'index' | 'category'>;
type Builder = (random: SeededRandom, id: RequestId) => Draft;

const KNOWN_METHODS = [
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'initialize',
] as const;

const NOTIFICATIONS = ['notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed'];

const reply = (id: RequestId): Expectation => ({ kind: 'reply', id });
const NULL_ID: Expectation = { kind: 'null-id-error' };
const SILENT: Expectation = { kind: 'silent' };

/** A JSON value of a random type and shape (bounded depth). */
export function randomJson(random: SeededRandom, depth = 0): unknown {
  const kind = random.int(depth > 2 ? 5 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 2 ** 53 + 2, -0.0001, 1e308, random.int(1000)]);
    case 3:
      return random.pick(['', 'x', '\u0000', '\ud800', 'é☃💥', random.string(random.int(40))]);
    case 4:
      return random.string(random.int(8), '{}[]":,\\ntrue');
    case 5:
      return Array.from({ length: random.int(4) }, () => randomJson(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = random.int(4); i > 0; i -= 1) object[random.pick(['a', 'id', 'method', '_meta', 'params', random.string(3)])] = randomJson(random, depth + 1);
      return object;
    }
  }
}

/** JSON text that never contains a raw newline (one stdio line). */
function line(value: unknown): string {
  return JSON.stringify(value);
}

function request(id: RequestId, method: string, params?: unknown): Record<string, unknown> {
  const message: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (params !== undefined) message.params = params;
  return message;
}

function knownParams(random: SeededRandom, method: string): unknown {
  switch (method) {
    case 'tools/call':
      return random.pick([
        { name: 'echo', arguments: { text: random.string(10) } },
        { name: 'echo', arguments: { text: randomJson(random) } },
        { name: 'echo' },
        { name: random.string(6), arguments: {} },
        { name: randomJson(random) },
        { arguments: randomJson(random) },
      ]);
    case 'resources/read':
    case 'resources/subscribe':
      return random.pick([{ uri: 'fault://note' }, { uri: random.string(12) }, { uri: randomJson(random) }, {}]);
    case 'prompts/get':
      return random.pick([{ name: 'greeting', arguments: { name: randomJson(random) } }, { name: random.string(5) }, {}]);
    case 'completion/complete':
      return { ref: randomJson(random), argument: randomJson(random) };
    case 'logging/setLevel':
      return { level: random.pick(['debug', 'emergency', 'loud', randomJson(random)]) };
    case 'initialize':
      return { protocolVersion: randomJson(random), capabilities: randomJson(random), clientInfo: randomJson(random) };
    default:
      return random.pick([undefined, {}, { cursor: randomJson(random) }, { [random.string(4)]: randomJson(random) }]);
  }
}

function validRequest(random: SeededRandom, id: RequestId): Record<string, unknown> {
  const method = random.pick(KNOWN_METHODS.filter((name) => name !== 'initialize'));
  return request(id, method, knownParams(random, method));
}

const INVALID_JSON_SNIPPETS = [
  '{',
  '}',
  '{"jsonrpc":"2.0",}',
  "{'jsonrpc':'2.0','id':1,'method':'ping'}",
  '{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
  '[1,2',
  'undefined',
  'nul',
  'tru',
  '{"a":01}',
  '"unterminated',
  '{"id":1 "method":"ping"}',
  '\u0000',
  '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '<html>',
  'Content-Length: 42',
];

const BUILDERS: Record<Exclude<Category, 'oversized' | 'no-session'>, Builder> = {
  'invalid-json': (random) => {
    const frame = random.chance(0.5) ? random.pick(INVALID_JSON_SNIPPETS) : `{${random.string(random.between(1, 60), 'abc{}[]:,"\'\\ 0123')}`;
    return { frame, expect: NULL_ID };
  },
  truncated: (random, id) => {
    const whole = line(validRequest(random, id));
    return { frame: whole.slice(0, random.between(1, whole.length - 1)), expect: NULL_ID };
  },
  'non-object': (random) => ({ frame: line(random.pick([42, -1.5, 'ping', '', true, false, null, random.string(8)])), expect: NULL_ID }),
  'bad-id': (random) => {
    const badId = random.pick<unknown>([null, 1.5, -0.25, 2 ** 60, true, false, {}, { id: 1 }, [], [1], [random.string(2)]]);
    return { frame: line({ jsonrpc: '2.0', id: badId, method: random.pick(KNOWN_METHODS) }), expect: NULL_ID };
  },
  'wrong-member-types': (random, id) => {
    const variant = random.int(5);
    const message = request(id, 'ping');
    if (variant === 0) message.jsonrpc = random.pick(['1.0', '2', 2, 2.0, null, true, '']);
    else if (variant === 1) delete message.jsonrpc;
    else if (variant === 2) message.method = random.pick([42, null, true, '', ['ping'], { name: 'ping' }]);
    else if (variant === 3) message.params = random.pick([[], [1, 2], 'params', 7, null, true]);
    else {
      // No id at all, and the message is broken: nothing to echo, so `"id": null`.
      delete message.id;
      message.jsonrpc = random.pick(['1.0', 1]);
      return { frame: line(message), expect: NULL_ID };
    }
    return { frame: line(message), expect: reply(id) };
  },
  'bad-meta': (random, id) => {
    const meta = random.pick<unknown>([
      'meta',
      42,
      null,
      [],
      [{ progressToken: 1 }],
      { progressToken: randomJson(random) },
      { progressToken: { nested: true } },
      { '': 1 },
      { 'io.modelcontextprotocol/': 'x' },
      { 'bad key with spaces': 1 },
      { '-leading/dash': 1 },
      { 'io.modelcontextprotocol/related-task': randomJson(random) },
      { [random.string(5)]: randomJson(random) },
    ]);
    const base = validRequest(random, id);
    const params = typeof base.params === 'object' && base.params !== null ? base.params : {};
    return { frame: line({ ...base, params: { ...params, _meta: meta } }), expect: reply(id) };
  },
  'unknown-method': (random, id) => {
    const method = random.pick([random.string(random.between(1, 20)), 'tools/unknown', 'rpc.discover', '$/cancelRequest', 'notifications/made-up', ' ping', 'PING', 'sampling/createMessage', 'roots/list']);
    if (random.chance(0.3)) return { frame: line({ jsonrpc: '2.0', method, params: { [random.string(4)]: randomJson(random, 1) } }), expect: SILENT };
    return { frame: line(request(id, method, random.chance(0.5) ? {} : undefined)), expect: reply(id) };
  },
  'known-method-bad-params': (random, id) => {
    if (random.chance(0.2)) {
      const method = random.pick(NOTIFICATIONS);
      return { frame: line({ jsonrpc: '2.0', method, params: { requestId: randomJson(random), progressToken: randomJson(random), progress: randomJson(random) } }), expect: SILENT };
    }
    const method = random.pick(KNOWN_METHODS);
    return { frame: line(request(id, method, knownParams(random, method))), expect: reply(id) };
  },
  response: (random) => {
    const variant = random.int(5);
    const id = random.pick<unknown>([999_999, 'never-sent', -5, null, 1.5]);
    const frame =
      variant === 0
        ? line({ jsonrpc: '2.0', id, result: {} })
        : variant === 1
          ? line({ jsonrpc: '2.0', id, error: { code: -32000, message: 'late' } })
          : variant === 2
            ? line({ jsonrpc: '2.0', id, result: {}, error: { code: 1, message: 'both' } })
            : variant === 3
              ? line({ jsonrpc: '2.0', id: 999_998, result: randomJson(random) })
              : line({ jsonrpc: '2.0', id: 999_997, error: randomJson(random) });
    return { frame, expect: SILENT };
  },
  batch: (random, id) => {
    const items = Array.from({ length: random.int(5) }, (_, i) => (random.chance(0.6) ? validRequest(random, `${String(id)}-b${String(i)}`) : randomJson(random, 1)));
    return { frame: line(items), expect: NULL_ID };
  },
  'deep-nesting': (random, id) => {
    const depth = random.pick([64, 1_000, 10_000, 100_000]);
    const variant = random.int(3);
    if (variant === 0) return { frame: '['.repeat(depth) + ']'.repeat(depth), expect: NULL_ID };
    if (variant === 1) return { frame: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"ping","params":{"deep":${'['.repeat(depth)}`, expect: NULL_ID };
    const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return {
      frame: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"echo","arguments":{"text":"deep","extra":${nested}}}}`,
      expect: reply(id),
    };
  },
};

function oversized(random: SeededRandom, id: RequestId, target: FuzzTarget, maxBodyBytes: number): Draft {
  if (target === 'http' && random.chance(0.5)) {
    // Past the HTTP body limit: refused with 413 before any parsing.
    const text = 'x'.repeat(maxBodyBytes + random.between(1, 64 * 1024));
    return { frame: line(request(id, 'tools/call', { name: 'echo', arguments: { text } })), expect: { kind: 'too-large' } };
  }
  // Large but within every limit: a normal reply. Stdio's limit (64 MiB) closes the
  // transport by design, so the stdio fuzz stays below it.
  const size = random.pick([64 * 1024, 512 * 1024, 2 * 1024 * 1024]);
  const text = random.chance(0.5) ? 'y'.repeat(size) : '☃'.repeat(size / 4);
  return { frame: line(request(id, 'tools/call', { name: 'echo', arguments: { text } })), expect: reply(id) };
}

function withoutSession(random: SeededRandom, id: RequestId): Draft {
  // Streamable HTTP: a non-initialize request without `Mcp-Session-Id` is a 400 whose
  // error still carries the request's id (2026-07-28 conformance, sep-2575).
  return { frame: line(validRequest(random, id)), expect: reply(id), withoutSession: true };
}

const WEIGHTS: readonly (readonly [Category, number])[] = [
  ['invalid-json', 12],
  ['truncated', 10],
  ['non-object', 6],
  ['bad-id', 10],
  ['wrong-member-types', 10],
  ['bad-meta', 10],
  ['unknown-method', 8],
  ['known-method-bad-params', 14],
  ['response', 6],
  ['batch', 6],
  ['deep-nesting', 4],
  ['oversized', 2],
  ['no-session', 2],
];

function pickCategory(random: SeededRandom, target: FuzzTarget): Category {
  const weights = WEIGHTS.filter(([category]) => target === 'http' || category !== 'no-session');
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.int(total);
  for (const [category, weight] of weights) {
    if (roll < weight) return category;
    roll -= weight;
  }
  return 'invalid-json';
}

/** Readable ids are unique across a run: numbers, negative numbers and strings in turn. */
function idFor(index: number): RequestId {
  switch (index % 3) {
    case 0:
      return 100_000 + index;
    case 1:
      return -(100_000 + index);
    default:
      return `fz-${String(index)}`;
  }
}

/**
 * The cases of one fuzz run: the same options always give the same list.
 *
 * @example
 * ```ts
 * const cases = generateCases({ seed: 0x5eed, count: 2000, target: 'stdio' });
 * ```
 */
export function generateCases(options: GenerateOptions): FuzzCase[] {
  const random = new SeededRandom(options.seed);
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const cases: FuzzCase[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const category = pickCategory(random, options.target);
    const id = idFor(index);
    const draft =
      category === 'oversized'
        ? oversized(random, id, options.target, maxBodyBytes)
        : category === 'no-session'
          ? withoutSession(random, id)
          : BUILDERS[category](random, id);
    cases.push({ index, category, ...draft });
  }
  return cases;
}
