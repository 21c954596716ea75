/**
 * Judges what a server answered to one fuzz case against the case's {@link Expectation},
 * and groups the violations of a run into a short report (one line per kind of problem,
 * with a count and the first case to replay).
 */
import type { Expectation, FuzzCase } from './malformed-inputs.js';

/** One broken rule: which case, and what went wrong (without ids, so equal problems group). */
export interface Violation {
  readonly index: number;
  readonly category: string;
  readonly problem: string;
  readonly detail: string;
}

const EXCERPT = 160;

/** The start of a frame or message, for reports. */
export function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}… (${String(text.length)} chars)` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message the server sent that answers something (it has no `method`). */
export function isResponse(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !('method' in value);
}

/** Responses whose id cannot be tied to a case by value: `"id": null` or no `id` member. */
export function hasUnreadableId(message: Record<string, unknown>): boolean {
  return !Object.hasOwn(message, 'id') || message.id === null;
}

/**
 * Checks the responses attributed to one case: those carrying the case's id plus those
 * without a usable id that arrived while the case was the one being answered.
 */
export function judge(fuzzCase: FuzzCase, responses: readonly Record<string, unknown>[]): Violation[] {
  const violation = (problem: string, detail: unknown): Violation => ({
    index: fuzzCase.index,
    category: fuzzCase.category,
    problem,
    detail: `frame ${excerpt(fuzzCase.frame)} → ${excerpt(detail)}`,
  });
  const expect = fuzzCase.expect;
  switch (expect.kind) {
    case 'reply': {
      const matching = responses.filter((message) => Object.hasOwn(message, 'id') && message.id === expect.id);
      const others = responses.filter((message) => !matching.includes(message));
      const found: Violation[] = [];
      if (matching.length === 0) found.push(violation('a request with a readable id got no response carrying that id', others));
      if (matching.length > 1) found.push(violation('a request got more than one response', matching));
      if (others.length > 0 && matching.length > 0) found.push(violation('unexpected extra responses', others));
      return found;
    }
    case 'null-id-error': {
      if (responses.length !== 1) return [violation(`expected exactly one error with "id": null, got ${responses.length === 0 ? 'none' : 'several'}`, responses)];
      const message = responses[0] ?? {};
      if (!isObject(message.error)) return [violation('expected an error response', message)];
      if (!Object.hasOwn(message, 'id')) return [violation('error without an "id" member (JSON-RPC 2.0 §5 requires "id": null)', message)];
      if (message.id !== null) return [violation('error for an unreadable id carries a non-null id', message)];
      return [];
    }
    case 'silent':
      return responses.length === 0 ? [] : [violation('a notification or response was answered', responses)];
    case 'too-large':
      return responses.filter((message) => message.id !== null).map((message) => violation('a 413 error must carry "id": null', message));
  }
}

/** {@link summarize} of the violations of the cases that expected `kind`. */
export function summarizeKind(violations: readonly Violation[], cases: readonly FuzzCase[], kind: Expectation['kind']): string[] {
  return summarize(violations.filter((violation) => cases[violation.index]?.expect.kind === kind));
}

/**
 * One line per kind of problem: `category: problem ×count (first: case #i: detail)`.
 *
 * @example
 * ```ts
 * expect(summarize(violations)).toEqual([]);
 * ```
 */
export function summarize(violations: readonly Violation[]): string[] {
  const groups = new Map<string, { count: number; first: Violation }>();
  for (const violation of violations) {
    const key = `${violation.category}: ${violation.problem}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { count: 1, first: violation });
    else group.count += 1;
  }
  return [...groups.entries()].map(([key, { count, first }]) => `${key} ×${String(count)} (first: case #${String(first.index)}: ${first.detail})`);
}
