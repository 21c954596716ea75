/**
 * Completers and the `completion/complete` result (MCP 2025-11-25 server/utilities/completion): at
 * most 100 values,
 * with `total` and `hasMore` filled in when a completer returns more.
 */
import type { RequestExtra } from './request-extra.js';
import type { CompleteResult } from './wire-types.js';

/** What a completer sees besides the partial value. */
export interface CompletionContext {
  /** Arguments the client already resolved (`context.arguments`, 2025-06-18+). */
  readonly arguments: Readonly<Record<string, string>>;
  readonly extra: RequestExtra;
}

/** A list of suggestions, or a page of them with the full count. */
export type CompletionValues = readonly string[] | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/** Suggests values for one prompt argument or template variable. */
export type Completer = (value: string, context: CompletionContext) => CompletionValues | Promise<CompletionValues>;

/** The spec's cap on values per completion result (100); longer lists are cut with `total` and `hasMore`. */
export const MAX_COMPLETION_VALUES = 100;

/** The wire result for what a completer returned. */
export function completionResult(found: CompletionValues): CompleteResult {
  const page = isStringList(found) ? { values: found } : found;
  const capped = page.values.slice(0, MAX_COMPLETION_VALUES);
  const total = page.total ?? page.values.length;
  const hasMore = page.hasMore ?? total > capped.length;
  const completion: CompleteResult['completion'] = { values: [...capped] };
  if (page.total !== undefined || page.values.length > capped.length) completion.total = total;
  if (page.hasMore !== undefined || hasMore) completion.hasMore = hasMore;
  return { completion };
}

function isStringList(found: CompletionValues): found is readonly string[] {
  return Array.isArray(found);
}

/**
 * The completer registered for `name` (a prompt argument or template variable named by the
 * client): an own entry of `table` only, so `constructor` or `toString` finds no completer
 * unless one was registered under that name.
 */
export function completerFor(table: Readonly<Record<string, Completer>> | undefined, name: string): Completer | undefined {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The client's `context.arguments` as an object without a prototype: a completer reading
 * `arguments.constructor` sees what the client sent, not `Object`.
 */
export function resolvedArguments(context: unknown): Readonly<Record<string, string>> {
  const given = (context as { arguments?: Record<string, string> } | undefined)?.arguments;
  return Object.assign(Object.create(null) as Record<string, string>, given);
}

/** No completer: no suggestions. */
export const NO_COMPLETIONS: CompleteResult = Object.freeze({ completion: Object.freeze({ values: [] as string[] }) });
