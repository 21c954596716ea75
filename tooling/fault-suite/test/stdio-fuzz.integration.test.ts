// Seeded malformed-input fuzz against a real statemcp stdio server (issue 18, items 1–2):
// 2 000 frames — invalid JSON, truncated frames, wrong types, bad ids, bad `_meta`, unknown
// methods, responses, batches, deep nesting, large frames — each followed by a `ping`
// sentinel, so every answer is tied to the frame that caused it.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, LineReader, spawnFixture, stop, within, type ExitInfo } from '../src/child-process.js';
import { generateCases, type FuzzCase } from '../src/malformed-inputs.js';
import { INITIALIZED_NOTIFICATION, initializeRequest } from '../src/handshake-messages.js';
import { StdioWire } from '../src/stdio-wire.js';
import { judge, summarizeKind, type Violation } from '../src/wire-oracle.js';

const SEED = 0x5eed_0001;
const COUNT = 2000;
const ANSWER_MS = 10_000;

describe('stdio server under malformed input', () => {
  const cases = generateCases({ seed: SEED, count: COUNT, target: 'stdio' });
  const violations: Violation[] = [];
  let child: ChildProcess;
  let wire: StdioWire;
  let stderr: LineReader;
  let exit: ExitInfo | undefined;
  let stoppedAnswering: string | undefined;
  let afterFuzz: Record<string, unknown> | undefined;

  async function runCase(fuzzCase: FuzzCase): Promise<void> {
    const sentinel = `sentinel-${String(fuzzCase.index)}`;
    await wire.write(`${fuzzCase.frame}\n${JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'ping' })}\n`);
    await within(wire.response(sentinel), ANSWER_MS, `the ping after case #${String(fuzzCase.index)}`);
    if (fuzzCase.expect.kind === 'reply') await within(wire.response(fuzzCase.expect.id), ANSWER_MS, `the answer to case #${String(fuzzCase.index)}`).catch(() => undefined);
    const own = fuzzCase.expect.kind === 'reply' ? (wire.byId.get(fuzzCase.expect.id) ?? []) : [];
    violations.push(...judge(fuzzCase, [...own, ...wire.drainWindow()]));
  }

  beforeAll(async () => {
    child = await spawnFixture('stdio-server.ts');
    const { stdin, stdout, stderr: errors } = child;
    if (stdin === null || stdout === null || errors === null) throw new Error('the fixture needs piped stdio');
    stdin.on('error', () => undefined);
    wire = new StdioWire(stdin, stdout);
    stderr = new LineReader(errors);
    void exited(child).then((info) => {
      exit = info;
    });

    await wire.write(`${JSON.stringify(initializeRequest('init'))}\n`);
    await within(wire.response('init'), ANSWER_MS, 'the initialize result');
    await wire.write(`${JSON.stringify(INITIALIZED_NOTIFICATION)}\n`);

    try {
      for (const fuzzCase of cases) {
        if (exit !== undefined) break;
        await runCase(fuzzCase);
      }
      await wire.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'after-fuzz', method: 'tools/call', params: { name: 'echo', arguments: { text: 'still alive' } } })}\n`);
      afterFuzz = await within(wire.response('after-fuzz'), ANSWER_MS, 'a valid tools/call after the fuzz');
    } catch (error) {
      stoppedAnswering = (error as Error).message;
    }
  }, 120_000);

  afterAll(async () => {
    child.stdin?.end();
    await within(exited(child), 5_000, 'the server exiting after stdin ended').catch(() => stop(child));
  });

  it('never crashes and keeps answering', () => {
    expect(exit, `the server exited: ${JSON.stringify(exit)}; stderr: ${stderr.text.slice(-2000)}`).toBeUndefined();
    expect(stoppedAnswering).toBeUndefined();
  });

  it('writes nothing but JSON-RPC to stdout', () => {
    expect(wire.garbage).toEqual([]);
  });

  it('answers every request with a readable id exactly once, with that id', () => {
    expect(summarizeKind(violations, cases, 'reply')).toEqual([]);
    const expectedIds = new Set(cases.flatMap((c) => (c.expect.kind === 'reply' ? [c.expect.id] : [])));
    const duplicates = [...expectedIds].filter((id) => (wire.byId.get(id)?.length ?? 0) > 1);
    expect(duplicates).toEqual([]);
    const strangers = [...wire.byId.keys()].filter((id) => !expectedIds.has(id) && !/^(init|after-fuzz|sentinel-\d+)$/.test(String(id)));
    expect(strangers).toEqual([]);
  });

  it('answers frames whose id cannot be read with one error carrying "id": null (JSON-RPC 2.0 §5)', () => {
    expect(summarizeKind(violations, cases, 'null-id-error')).toEqual([]);
  });

  it('never answers notifications or responses', () => {
    expect(summarizeKind(violations, cases, 'silent')).toEqual([]);
  });

  it('still serves a valid request after the fuzz', () => {
    expect(afterFuzz).toMatchObject({ id: 'after-fuzz', result: { content: [{ type: 'text', text: 'still alive' }] } });
  });
});
