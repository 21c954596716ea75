/**
 * Auto-pagination of the list calls: follows `nextCursor` until a page has none, yielding
 * items one by one. A server that hands out a cursor it already gave would loop forever;
 * that is refused with an `InvalidResultError` instead.
 */
import { InvalidResultError } from '@statemcp/protocol';

/** One page of a paginated list. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | undefined;
}

/**
 * Yields every item of every page, fetching the next page only when the previous one is
 * used up. An empty-string cursor is a real cursor; only a missing `nextCursor` ends the list.
 *
 * @example
 * ```ts
 * for await (const tool of paginate((cursor) => fetchToolsPage(cursor), 'tools/list')) console.log(tool.name);
 * ```
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, method: string, firstCursor?: string): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor = firstCursor;
  if (cursor !== undefined) seen.add(cursor);
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    const next = page.nextCursor;
    if (next === undefined) return;
    if (seen.has(next)) {
      throw new InvalidResultError(`${method}: the server repeated the cursor ${JSON.stringify(next)}; stopping instead of looping forever`);
    }
    seen.add(next);
    cursor = next;
  }
}
