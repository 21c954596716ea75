/**
 * Own-property lookups (issue 32, finding "own-property lookups"): a name a peer chooses —
 * a method, a tool, a prompt and its arguments, a completion ref and argument, a template
 * variable, a resource URI, a task id, a skill, a custom method, an `_meta` key, a capability,
 * an input-response key, an HTTP header, a scope table entry — must never reach an
 * `Object.prototype` member. `__proto__`, `constructor`, `toString` and `hasOwnProperty` get
 * the ordinary answer (unknown tool, method not found, invalid params, no completions), or
 * work where something was registered under that very name. Each is sent to every
 * name-indexed entry point of a real server over stdio and over Streamable HTTP behind OAuth
 * scopes (`toolScopes`, `methodScopes`), where a lookup that falls through to the prototype
 * used to answer 500.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpPeer, stdioPeer, type Answer, type NamePeer } from '../src/own-property-names-peers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const HOSTILE_SERVER = fileURLToPath(new URL('../fixtures/own-property-hostile-server.ts', import.meta.url));

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;
type Name = (typeof NAMES)[number];
type Json = Record<string, unknown>;

/** An object with `name` as an own member (JSON text, so `__proto__` is a member, not the prototype). */
function member(name: string, value: unknown): Json {
  return JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}}`) as Json;
}

/** What an answer comes to: `error <code>`, `ok` (with what the probe reads off the result), or the HTTP failure. */
function outcome(answer: Answer, read: (result: Json) => string = () => ''): string {
  if (answer.status !== undefined && answer.status >= 500) return `HTTP ${String(answer.status)}`;
  const response = answer.response;
  if (response === undefined) return answer.status === 202 ? 'accepted' : `no answer (HTTP ${String(answer.status)})`;
  const error = response.error as { code?: number; message?: string } | undefined;
  if (error !== undefined) {
    // A refusal names the problem; an Object.prototype member leaking in shows as a TypeError's text.
    const leaked = /is not a function|is not iterable|Cannot read properties|Cannot convert undefined/.test(error.message ?? '');
    return leaked ? `error ${String(error.code)} (crash: ${String(error.message)})` : `error ${String(error.code)}`;
  }
  const detail = read(response.result as Json);
  return detail === '' ? 'ok' : `ok ${detail}`;
}

const firstText = (result: Json): string => String((result.content as { text?: string }[] | undefined)?.[0]?.text);
const promptText = (result: Json): string => String((result.messages as { content: { text?: string } }[] | undefined)?.[0]?.content.text);
const completions = (result: Json): string => JSON.stringify((result.completion as { values?: unknown } | undefined)?.values);

/** One name-indexed entry point: what to send for `name`, and the answer it must get. */
interface Probe {
  readonly entry: string;
  send(peer: NamePeer, name: Name): Promise<string>;
  expected(name: Name): string;
}

const PROBES: readonly Probe[] = [
  {
    entry: 'request method',
    send: async (peer, name) => outcome(await peer.request(name, {})),
    expected: () => 'error -32601',
  },
  {
    entry: 'notification method, then ping',
    send: async (peer, name) => {
      const sent = await peer.notify(name, {});
      return `${outcome(sent)} / ${outcome(await peer.request('ping', {}))}`;
    },
    expected: () => 'NOTIFIED / ok',
  },
  {
    entry: 'tools/call name',
    send: async (peer, name) => outcome(await peer.request('tools/call', { name, arguments: {} }), firstText),
    expected: (name) => (name === 'toString' ? 'ok toString ran' : 'error -32602'),
  },
  {
    entry: 'tools/call argument name',
    send: async (peer, name) => outcome(await peer.request('tools/call', { name: 'echo', arguments: { text: 'hi', ...member(name, 1) } }), firstText),
    expected: () => 'ok hi',
  },
  {
    entry: 'prompts/get name',
    send: async (peer, name) => outcome(await peer.request('prompts/get', { name, arguments: { hasOwnProperty: 'given' } }), promptText),
    expected: (name) => (name === 'constructor' ? 'ok constructor prompt: {"hasOwnProperty":"given"}' : 'error -32602'),
  },
  {
    entry: 'prompts/get argument name',
    send: async (peer, name) => outcome(await peer.request('prompts/get', { name: 'review', arguments: { code: 'x', ...member(name, 'y') } }), promptText),
    expected: () => 'ok review x',
  },
  {
    entry: 'prompts/get of a prompt whose argument has that name, argument missing',
    send: async (peer, name) => outcome(await peer.request('prompts/get', { name: 'constructor', arguments: member(name === 'hasOwnProperty' ? 'other' : name, 'z') }), promptText),
    // The prompt `constructor` requires `hasOwnProperty`: sent only under another name, it is missing.
    expected: () => 'error -32602',
  },
  {
    entry: 'completion/complete prompt ref',
    send: async (peer, name) => outcome(await peer.request('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: 'hasOwnProperty', value: '' } }), completions),
    expected: (name) => (name === 'constructor' ? 'ok ["own"]' : 'error -32602'),
  },
  {
    entry: 'completion/complete prompt argument',
    send: async (peer, name) => outcome(await peer.request('completion/complete', { ref: { type: 'ref/prompt', name: 'review' }, argument: { name, value: '' } }), completions),
    expected: () => 'ok []',
  },
  {
    entry: 'completion/complete resource ref',
    send: async (peer, name) => outcome(await peer.request('completion/complete', { ref: { type: 'ref/resource', uri: name }, argument: { name: 'id', value: '' } }), completions),
    expected: () => 'error -32602',
  },
  {
    entry: 'completion/complete template variable',
    send: async (peer, name) => outcome(await peer.request('completion/complete', { ref: { type: 'ref/resource', uri: 'test://items/{id}{?q}' }, argument: { name, value: '' } }), completions),
    expected: () => 'ok []',
  },
  {
    entry: 'completion/complete context argument',
    send: async (peer, name) =>
      outcome(await peer.request('completion/complete', { ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'code', value: '' }, context: { arguments: member(name, 'x') } }), completions),
    expected: () => 'ok ["let x = 1"]',
  },
  {
    entry: 'resources/read uri',
    send: async (peer, name) => outcome(await peer.request('resources/read', { uri: name })),
    expected: () => 'error -32002',
  },
  {
    entry: 'resources/read template query variable',
    send: async (peer, name) =>
      outcome(await peer.request('resources/read', { uri: `test://items/7?${name}=x&q=y` }), (result) => String((result.contents as { text?: string }[] | undefined)?.[0]?.text)),
    expected: () => 'ok {"id":"7","q":"y"}',
  },
  {
    entry: 'resources/read of a template whose variables have such names',
    send: async (peer, name) =>
      outcome(await peer.request('resources/read', { uri: `test://odd/${encodeURIComponent(name)}?toString=x` }), (result) => String((result.contents as { text?: string }[] | undefined)?.[0]?.text)),
    expected: (name) => `ok {"constructor":"${name}","toString":"x"}`,
  },
  {
    entry: 'resources/subscribe uri',
    send: async (peer, name) => outcome(await peer.request('resources/subscribe', { uri: name })),
    expected: () => 'ok',
  },
  {
    entry: 'tasks/get task id',
    send: async (peer, name) => outcome(await peer.request('tasks/get', { taskId: name })),
    expected: () => 'error -32602',
  },
  {
    entry: 'tasks/cancel task id',
    send: async (peer, name) => outcome(await peer.request('tasks/cancel', { taskId: name })),
    expected: () => 'error -32602',
  },
  {
    entry: 'skills/get skill name',
    send: async (peer, name) => outcome(await peer.request('skills/get', { uri: `skill://${name}/SKILL.md` })),
    expected: () => 'error -32602',
  },
  {
    entry: 'custom method name',
    send: async (peer, name) => outcome(await peer.request(`com.example/${name}`, {})),
    expected: () => 'error -32601',
  },
  {
    entry: 'custom method param name',
    send: async (peer, name) => outcome(await peer.request('com.example/echo', member(name, 1)), (result) => String(Object.keys(result.echoed as Json))),
    // zod's object schemas drop a `__proto__` member rather than copy it: the handler never sees it.
    expected: (name) => (name === '__proto__' ? 'ok' : `ok ${name}`),
  },
  {
    entry: '_meta key',
    send: async (peer, name) => outcome(await peer.request('ping', { _meta: member(name, { a: 1 }) })),
    expected: () => 'ok',
  },
  {
    entry: '2026-07-28 tools/call name',
    send: async (peer, name) => outcome(await peer.request('tools/call', { name, arguments: {} }, 'modern'), firstText),
    expected: (name) => (name === 'toString' ? 'ok toString ran' : 'error -32602'),
  },
  {
    entry: '2026-07-28 request method',
    send: async (peer, name) => outcome(await peer.request(name, {}, 'modern')),
    expected: () => 'error -32601',
  },
  {
    entry: '2026-07-28 tasks/get, tasks/update, tasks/cancel task id',
    send: async (peer, name) => {
      const answers = [
        await peer.request('tasks/get', { taskId: name }, 'modern'),
        await peer.request('tasks/update', { taskId: name, inputResponses: {} }, 'modern'),
        await peer.request('tasks/cancel', { taskId: name }, 'modern'),
      ];
      return answers.map((answer) => outcome(answer)).join(' / ');
    },
    expected: () => 'error -32602 / error -32602 / error -32602',
  },
  {
    entry: '2026-07-28 inputResponses key of a Multi Round-Trip request',
    send: async (peer, name) => {
      const first = await peer.request('tools/call', { name: 'ask_inline', arguments: {} }, 'modern');
      const state = (first.response?.result as Json | undefined)?.requestState;
      const retry = await peer.request('tools/call', { name: 'ask_inline', arguments: {}, inputResponses: member(name, { action: 'accept', content: {} }), requestState: state }, 'modern');
      return outcome(retry, (result) => String(result.resultType));
    },
    // An answer under another key is not the answer to `elicitation-1`: the round is asked again.
    expected: () => 'ok input_required',
  },
  {
    entry: '2026-07-28 inputResponses key of a task',
    send: async (peer, name) => {
      const created = await peer.request('tools/call', { name: 'ask', arguments: {} }, 'modern');
      const taskId = String((created.response?.result as Json | undefined)?.taskId);
      let task: Answer;
      do task = await peer.request('tasks/get', { taskId }, 'modern');
      while ((task.response?.result as Json | undefined)?.status === 'working');
      const update = await peer.request('tasks/update', { taskId, inputResponses: member(name, { action: 'accept', content: {} }) }, 'modern');
      const after = await peer.request('tasks/get', { taskId }, 'modern');
      await peer.request('tasks/cancel', { taskId }, 'modern');
      return `${outcome(update)} / ${outcome(after, (result) => String(result.status))}`;
    },
    expected: () => 'ok / ok input_required',
  },
];

describe.each([
  ['stdio', stdioPeer],
  ['Streamable HTTP behind OAuth scopes', httpPeer],
] as const)('Object.prototype names over %s', (_label, start) => {
  let peer: NamePeer;

  beforeAll(async () => {
    peer = await start(NAMES);
  });

  afterAll(async () => {
    await peer.close();
  });

  it.each(NAMES)('answers %s at every name-indexed entry point like any unknown (or registered) name', async (name) => {
    const seen: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const probe of PROBES) {
      seen[probe.entry] = (await probe.send(peer, name)).replace(/^accepted|^no answer \(HTTP undefined\)/, 'NOTIFIED');
      expected[probe.entry] = probe.expected(name);
    }
    expect(seen).toEqual(expected);
  });
});

describe('Object.prototype names as HTTP header names', () => {
  it('hands a handler exactly the headers sent, whatever their names', async () => {
    const peer = await httpPeer(NAMES);
    try {
      const sent = { constructor: 'x', ...(member('__proto__', 'y') as Record<string, string>), tostring: 'z', hasownproperty: 'w', 'mcp-param-constructor': 'v' };
      expect(outcome(await peer.withHeaders('ping', {}, sent))).toBe('ok');
      const header = async (name: string, headers: Record<string, string>): Promise<string> => outcome(await peer.withHeaders('tools/call', { name: 'header', arguments: { name } }, headers), firstText);
      expect(await header('constructor', {})).toBe('ok no header constructor: undefined');
      expect(await header('tostring', {})).toBe('ok no header tostring: undefined');
      expect(await header('constructor', sent)).toBe('ok header constructor: x');
      // Node's HTTP parser drops a header named `__proto__`; what the handler sees is no header, not a prototype.
      expect(await header('__proto__', sent)).toBe('ok no header __proto__: undefined');
    } finally {
      await peer.close();
    }
  });
});

describe('Object.prototype names sent by a server to a statemcp client over stdio', () => {
  it.each(NAMES)('answers %s as a method, a form field, a _meta key and a param like any other name', async (name) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [await bundleNodeScript(HOSTILE_SERVER)], cwd: PACKAGE_DIR });
    const client = new Client(
      { name: 'own-property-test', version: '1.0.0' },
      { era: 'legacy', onElicitation: () => ({ action: 'accept', content: {} }), roots: [{ uri: 'file:///tmp', name: 'tmp' }] },
    );
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'probe', arguments: { name } });
      const report = JSON.parse(firstText(result)) as Json;
      expect(report).toEqual({
        request: { error: -32601 },
        // zod's object schemas drop a `__proto__` member of the form; any other name is a field like any other.
        elicitation: name === '__proto__' ? { action: 'accept', keys: [] } : { action: 'accept', keys: [name], value: 'from-default' },
        roots: { result: { roots: [{ uri: 'file:///tmp', name: 'tmp' }] } },
        unknown: { error: -32601 },
      });
      await expect(client.ping()).resolves.toBeDefined();
    } finally {
      await client.close();
    }
  });
});
