import { InvalidArgumentError, InvalidResultError, TooManyPagesError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { collectPages, paginate, type Page } from './pagination.js';

function pages(...list: Page<number>[]) {
  const asked: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined) => {
    asked.push(cursor);
    const page = list.shift();
    if (page === undefined) throw new Error('no more pages');
    return page;
  };
  return { fetchPage, asked };
}

async function collect(iterable: AsyncIterable<number>): Promise<number[]> {
  const items: number[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('paginate', () => {
  it('follows nextCursor until a page has none', async () => {
    const { fetchPage, asked } = pages({ items: [1, 2], nextCursor: 'a' }, { items: [3], nextCursor: 'b' }, { items: [], nextCursor: undefined });
    await expect(collect(paginate(fetchPage, 'x/list'))).resolves.toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'a', 'b']);
  });

  it('treats an empty-string cursor as a real cursor', async () => {
    const { fetchPage, asked } = pages({ items: [1], nextCursor: '' }, { items: [2], nextCursor: undefined });
    await expect(collect(paginate(fetchPage, 'x/list'))).resolves.toEqual([1, 2]);
    expect(asked).toEqual([undefined, '']);
  });

  it('starts from the given cursor', async () => {
    const { fetchPage, asked } = pages({ items: [9], nextCursor: undefined });
    await expect(collect(paginate(fetchPage, 'x/list', 'start'))).resolves.toEqual([9]);
    expect(asked).toEqual(['start']);
  });

  it('throws InvalidResultError when a cursor comes back a second time', async () => {
    const { fetchPage } = pages({ items: [1], nextCursor: 'a' }, { items: [2], nextCursor: 'b' }, { items: [3], nextCursor: 'a' });
    const items: number[] = [];
    const run = async () => {
      for await (const item of paginate(fetchPage, 'x/list')) items.push(item);
    };
    await expect(run()).rejects.toBeInstanceOf(InvalidResultError);
    expect(items).toEqual([1, 2, 3]);
  });

  it('throws when the next cursor equals the starting cursor', async () => {
    const { fetchPage } = pages({ items: [1], nextCursor: 'start' });
    await expect(collect(paginate(fetchPage, 'x/list', 'start'))).rejects.toThrow(/repeated the cursor "start"/);
  });

  it('stops with TooManyPagesError when the last page allowed still has a nextCursor', async () => {
    const { fetchPage, asked } = pages({ items: [1], nextCursor: 'a' }, { items: [2], nextCursor: 'b' }, { items: [3], nextCursor: undefined });
    const items: number[] = [];
    const run = async () => {
      for await (const item of paginate(fetchPage, 'x/list', undefined, 2)) items.push(item);
    };
    const error: unknown = await run().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyPagesError);
    expect(error).toMatchObject({ code: 'TOO_MANY_PAGES', category: 'format', method: 'x/list', maxPages: 2 });
    expect(items).toEqual([1, 2]);
    expect(asked).toEqual([undefined, 'a']);
  });

  it('accepts a listing of exactly maxPages pages', async () => {
    const { fetchPage } = pages({ items: [1], nextCursor: 'a' }, { items: [2], nextCursor: undefined });
    await expect(collect(paginate(fetchPage, 'x/list', undefined, 2))).resolves.toEqual([1, 2]);
  });

  it('refuses a maxPages that is not a positive integer, before fetching', async () => {
    for (const maxPages of [0, -1, 1.5, Number.NaN]) {
      const { fetchPage, asked } = pages({ items: [1], nextCursor: undefined });
      await expect(collect(paginate(fetchPage, 'x/list', undefined, maxPages))).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(asked).toEqual([]);
    }
  });
});

describe('collectPages', () => {
  it('collects every item into one array', async () => {
    const { fetchPage } = pages({ items: [1, 2], nextCursor: 'a' }, { items: [3], nextCursor: undefined });
    await expect(collectPages(fetchPage, 'x/list', undefined)).resolves.toEqual([1, 2, 3]);
  });

  it('is bounded by 100 pages by default', async () => {
    let served = 0;
    const endless = async (): Promise<Page<number>> => ({ items: [served], nextCursor: `c${++served}` });
    await expect(collectPages(endless, 'x/list', undefined)).rejects.toMatchObject({ name: 'TooManyPagesError', maxPages: 100 });
    expect(served).toBe(100);
  });
});
