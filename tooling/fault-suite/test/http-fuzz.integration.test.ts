// Seeded malformed-input fuzz against a real statemcp Streamable HTTP server on 127.0.0.1
// (issue 18, item 2): 2 000 POST bodies in an initialized session — the stdio categories
// plus bodies past the 4 MiB limit and requests without `Mcp-Session-Id`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { within } from '../src/child-process.js';
import { HttpFixture } from '../src/http-fixture.js';
import { HttpWire, type HttpAnswer } from '../src/http-wire.js';
import { generateCases, type FuzzCase } from '../src/malformed-inputs.js';
import { excerpt, hasUnreadableId, isResponse, judge, summarizeKind, type Violation } from '../src/wire-oracle.js';

const SEED = 0x5eed_0002;
const COUNT = 2000;

/** What the HTTP layer must answer, beyond the JSON-RPC messages `judge` checks. */
function statusProblem(fuzzCase: FuzzCase, answer: HttpAnswer): string | undefined {
  switch (fuzzCase.expect.kind) {
    case 'reply':
      return undefined;
    case 'null-id-error':
      return answer.status === 400 ? undefined : `expected HTTP 400, got ${String(answer.status)}`;
    case 'silent':
      return answer.status === 202 || answer.status === 400 ? undefined : `expected HTTP 202 (or 400), got ${String(answer.status)}`;
    case 'too-large':
      return answer.status === 413 ? undefined : `expected HTTP 413, got ${String(answer.status)}`;
  }
}

/**
 * The responses that answer the case. A POST of notifications or responses that the server
 * cannot accept gets an HTTP error whose body MAY be a JSON-RPC error without an id
 * (Streamable HTTP, "Sending Messages to the Server"); such an error answers no request.
 */
function answered(fuzzCase: FuzzCase, answer: HttpAnswer): Record<string, unknown>[] {
  const responses = answer.messages.filter(isResponse);
  if (fuzzCase.expect.kind !== 'silent' || answer.status !== 400) return responses;
  return responses.filter((message) => !(hasUnreadableId(message) && 'error' in message));
}

describe('Streamable HTTP server under malformed input', () => {
  const cases = generateCases({ seed: SEED, count: COUNT, target: 'http' });
  const violations: Violation[] = [];
  const failures: string[] = [];
  let fixture: HttpFixture;
  let wire: HttpWire;
  let afterFuzz: HttpAnswer | undefined;

  beforeAll(async () => {
    fixture = await HttpFixture.start();
    wire = new HttpWire(fixture.url);
    await wire.initialize();
    for (const fuzzCase of cases) {
      if (fixture.exit !== undefined) break;
      let answer: HttpAnswer;
      try {
        answer = await within(wire.post(fuzzCase.frame, fuzzCase.withoutSession ? { withoutSession: true } : {}), 10_000, `case #${String(fuzzCase.index)}`);
      } catch (error) {
        const cause = (error as Error).cause;
        failures.push(`case #${String(fuzzCase.index)} (${fuzzCase.category}): ${(error as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}`);
        continue;
      }
      const problem = statusProblem(fuzzCase, answer);
      const detail = `frame ${excerpt(fuzzCase.frame)} → ${String(answer.status)} ${excerpt(answer.messages)}`;
      if (problem !== undefined) violations.push({ index: fuzzCase.index, category: fuzzCase.category, problem, detail });
      if (answer.garbage.length > 0) violations.push({ index: fuzzCase.index, category: fuzzCase.category, problem: 'a body that is not JSON-RPC', detail: answer.garbage.join(' | ') });
      violations.push(...judge(fuzzCase, answered(fuzzCase, answer)));
    }
    const valid = JSON.stringify({ jsonrpc: '2.0', id: 'after-fuzz', method: 'tools/call', params: { name: 'echo', arguments: { text: 'still alive' } } });
    afterFuzz = await within(wire.post(valid), 10_000, 'a valid tools/call after the fuzz').catch((error: unknown) => {
      failures.push(`after the fuzz: ${(error as Error).message}`);
      return undefined;
    });
  }, 120_000);

  afterAll(async () => {
    await fixture.close();
  });

  it('never crashes and answers every POST', () => {
    expect(fixture.exit, `the server exited; stderr: ${fixture.stderr.text.slice(-2000)}`).toBeUndefined();
    expect(failures).toEqual([]);
  });

  it('answers every request with a readable id exactly once, with that id (with or without a session)', () => {
    expect(summarizeKind(violations, cases, 'reply')).toEqual([]);
  });

  it('answers bodies whose id cannot be read with 400 and one error carrying "id": null (JSON-RPC 2.0 §5)', () => {
    expect(summarizeKind(violations, cases, 'null-id-error')).toEqual([]);
  });

  it('accepts notifications and responses without answering them', () => {
    expect(summarizeKind(violations, cases, 'silent')).toEqual([]);
  });

  it('refuses bodies past the limit with 413', () => {
    expect(cases.some((c) => c.expect.kind === 'too-large')).toBe(true);
    expect(summarizeKind(violations, cases, 'too-large')).toEqual([]);
  });

  it('still serves a valid request after the fuzz', () => {
    expect(afterFuzz?.status).toBe(200);
    expect(afterFuzz?.messages).toContainEqual(expect.objectContaining({ id: 'after-fuzz', result: { content: [{ type: 'text', text: 'still alive' }] } }));
  });
});
