/**
 * Auto-pagination of the list calls: follows `nextCursor` until a page has none, yielding
 * items one by one. A server that hands out a cursor it already gave would loop forever;
 * that is refused with an `InvalidResultError` instead. A page bound (`maxPages`) turns a
 * listing that never ends into a `TooManyPagesError`; the collect-all calls always have one.
 */
import { InvalidArgumentError, InvalidResultError, TooManyPagesError } from '@statemcp/protocol';
import type { CallOptions } from './options.js';
import type { ListParams, ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ListToolsResult, Prompt, Resource, ResourceTemplate, Tool } from './types.js';

/** The paginated lists of a server, by the name the client's calls use. */
export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** The item type of each list. */
export type ListItem<K extends ListKind> = { tools: Tool; resources: Resource; resourceTemplates: ResourceTemplate; prompts: Prompt }[K];

/** Where each list's items sit in its page result. */
export const LIST_ITEMS_KEY: Readonly<Record<ListKind, string>> = Object.freeze({
  tools: 'tools',
  resources: 'resources',
  resourceTemplates: 'resourceTemplates',
  prompts: 'prompts',
});

/** The wire method of each list. */
export const LIST_METHOD: Readonly<Record<ListKind, string>> = Object.freeze({
  tools: 'tools/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
  prompts: 'prompts/list',
});

/** One page of a paginated list. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | undefined;
}

/** Fetches the page at `cursor` (the first page when undefined). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<Page<T>>;

/** The page bound of the collect-all calls (`listAllTools()`, …) when none is given. */
export const DEFAULT_MAX_PAGES = 100;

/**
 * Yields every item of every page, fetching the next page only when the previous one is
 * used up. An empty-string cursor is a real cursor; only a missing `nextCursor` ends the list.
 * With `maxPages`, at most that many pages are fetched: when the last one allowed still has a
 * `nextCursor`, the iteration throws `TooManyPagesError` (after yielding that page's items).
 *
 * @example
 * ```ts
 * for await (const tool of paginate((cursor) => fetchToolsPage(cursor), 'tools/list')) console.log(tool.name);
 * ```
 */
export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  method: string,
  firstCursor?: string,
  maxPages?: number,
): AsyncGenerator<T, void, undefined> {
  if (maxPages !== undefined) checkMaxPages(maxPages);
  const seen = new Set<string>();
  let cursor = firstCursor;
  if (cursor !== undefined) seen.add(cursor);
  for (let fetched = 1; ; fetched++) {
    const page = await fetchPage(cursor);
    yield* page.items;
    const next = page.nextCursor;
    if (next === undefined) return;
    if (seen.has(next)) {
      throw new InvalidResultError(`${method}: the server repeated the cursor ${JSON.stringify(next)}; stopping instead of looping forever`);
    }
    if (maxPages !== undefined && fetched >= maxPages) throw new TooManyPagesError(method, maxPages);
    seen.add(next);
    cursor = next;
  }
}

/** Every item of every page in one array, fetching at most `maxPages` pages (see {@link paginate}). */
export async function collectPages<T>(
  fetchPage: PageFetcher<T>,
  method: string,
  firstCursor: string | undefined,
  maxPages: number = DEFAULT_MAX_PAGES,
): Promise<T[]> {
  const items: T[] = [];
  for await (const item of paginate(fetchPage, method, firstCursor, maxPages)) items.push(item);
  return items;
}

function checkMaxPages(maxPages: number): void {
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new InvalidArgumentError(`maxPages must be a positive integer (got ${String(maxPages)})`);
}

/** `params` with `cursor` replaced (or removed when undefined). */
export function withCursor(params: ListParams, cursor: string | undefined): ListParams {
  const { cursor: _ignored, ...rest } = params;
  return cursor === undefined ? rest : { ...rest, cursor };
}

/** The one-page list calls of a client. */
export interface OnePageLister {
  listTools(params: ListParams, options: CallOptions): Promise<ListToolsResult>;
  listResources(params: ListParams, options: CallOptions): Promise<ListResourcesResult>;
  listResourceTemplates(params: ListParams, options: CallOptions): Promise<ListResourceTemplatesResult>;
  listPrompts(params: ListParams, options: CallOptions): Promise<ListPromptsResult>;
}

/** The page fetcher of list `kind`, through the client's one-page call (so a tools listing remembers output schemas). */
export function pageFetcher<K extends ListKind>(lister: OnePageLister, kind: K, params: ListParams, options: CallOptions): PageFetcher<ListItem<K>> {
  return async (cursor) => {
    const page = await onePage(lister, kind, withCursor(params, cursor), options);
    return { items: (page as unknown as Record<string, unknown>)[LIST_ITEMS_KEY[kind]] as ListItem<K>[], nextCursor: page.nextCursor };
  };
}

function onePage(lister: OnePageLister, kind: ListKind, params: ListParams, options: CallOptions): Promise<{ nextCursor?: string }> {
  switch (kind) {
    case 'tools':
      return lister.listTools(params, options);
    case 'resources':
      return lister.listResources(params, options);
    case 'resourceTemplates':
      return lister.listResourceTemplates(params, options);
    case 'prompts':
      return lister.listPrompts(params, options);
  }
}
