/**
 * The page's files, read once from the package's `page/` folder (shipped as they are: no
 * build step for the page, no framework).
 */
import { readFile } from 'node:fs/promises';

export interface PageAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** The HTML page needs the token; its script and style hold no data and do not. */
  readonly needsToken: boolean;
}

export interface PageAssets {
  readonly byPath: ReadonlyMap<string, PageAsset>;
}

const FILES = [
  { path: '/', file: 'index.html', contentType: 'text/html; charset=utf-8', needsToken: true },
  { path: '/app.js', file: 'app.js', contentType: 'text/javascript; charset=utf-8', needsToken: false },
  { path: '/tasks.js', file: 'tasks.js', contentType: 'text/javascript; charset=utf-8', needsToken: false },
  { path: '/queues.js', file: 'queues.js', contentType: 'text/javascript; charset=utf-8', needsToken: false },
  { path: '/style.css', file: 'style.css', contentType: 'text/css; charset=utf-8', needsToken: false },
] as const;

let loaded: Promise<PageAssets> | undefined;

/** Loads the page's files (once per process, on the first page request; a failed load is retried). */
export function loadPage(): Promise<PageAssets> {
  loaded ??= (async () => {
    const folder = new URL('../page/', import.meta.url);
    const entries = await Promise.all(
      FILES.map(async (entry) => [entry.path, { body: await readFile(new URL(entry.file, folder)), contentType: entry.contentType, needsToken: entry.needsToken }] as const),
    );
    return { byPath: new Map(entries) };
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
