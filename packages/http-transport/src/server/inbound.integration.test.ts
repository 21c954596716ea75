/**
 * Reading a node:http request body on real 127.0.0.1 sockets: a body sent in several chunks
 * is read whole, one node:http has already buffered is read too (and the request still ends),
 * one past the limit is refused (and drained), and a client that leaves in the middle of its
 * body ends the read with a reason instead of leaving it waiting.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { fromNodeRequest, type BodyRead } from './inbound.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/**
 * A server whose every request body is read with `limit`; each request's read is taken in order.
 * `late`: the body is read a macrotask after the request arrived (node:http has buffered it by then).
 */
async function bodyServer(
  limit: number,
  { late = false }: { late?: boolean } = {},
): Promise<{ port: number; started: () => Promise<void>; read: () => Promise<BodyRead>; ended: () => Promise<void> }> {
  const reads = new Queue<BodyRead>();
  const starts = new Queue<undefined>();
  const ends = new Queue<undefined>();
  server = createServer((req: IncomingMessage, res) => {
    starts.push(undefined);
    req.once('end', () => ends.push(undefined));
    const readBody = (): void =>
      void fromNodeRequest(req, res)
        .readBody(limit)
        .then((read) => {
          reads.push(read);
          if (!res.destroyed) res.end(read.ok ? 'ok' : 'refused');
        });
    if (late) setImmediate(readBody);
    else readBody();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    started: () => starts.take().then(() => undefined),
    read: () => reads.take(),
    ended: () => ends.take().then(() => undefined),
  };
}

class Queue<T> {
  readonly #items: T[] = [];
  readonly #waiters: ((item: T) => void)[] = [];

  push(item: T): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) this.#items.push(item);
    else waiter(item);
  }

  take(): Promise<T> {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift() as T);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/** POSTs `chunks`, each in its own write a macrotask apart; resolves with the answer's text. */
function post(port: number, chunks: readonly Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp' }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve(text));
    });
    outgoing.on('error', reject);
    const write = (index: number): void => {
      if (index === chunks.length) {
        outgoing.end();
        return;
      }
      outgoing.write(chunks[index], () => setImmediate(() => write(index + 1)));
    };
    write(0);
  });
}

/** POSTs `body` in one write with its `Content-Length`; resolves with the answer's text. */
function postWhole(port: number, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-length': String(body.byteLength) } }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve(text));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('fromNodeRequest readBody', () => {
  it('reads a body sent in several chunks whole, a character split across two of them included', async () => {
    const { port, read } = await bodyServer(1024);
    const bytes = Buffer.from('{"text":"héllo wörld"}', 'utf8');
    const split = bytes.indexOf(0xc3) + 1;
    await expect(post(port, [bytes.subarray(0, split), bytes.subarray(split)])).resolves.toBe('ok');
    expect(await read()).toEqual({ ok: true, text: '{"text":"héllo wörld"}' });
  });

  it('reads a body node:http has already buffered whole, and the request still ends', async () => {
    const { port, read, ended } = await bodyServer(1024, { late: true });
    const body = Buffer.from('{"text":"héllo"}', 'utf8');
    await expect(postWhole(port, body)).resolves.toBe('ok');
    expect(await read()).toEqual({ ok: true, text: '{"text":"héllo"}' });
    await ended();
  });

  it('refuses a buffered body past the limit', async () => {
    const { port, read } = await bodyServer(16, { late: true });
    await expect(postWhole(port, Buffer.from('z'.repeat(40)))).resolves.toBe('refused');
    expect(await read()).toEqual({ ok: false, tooLarge: true });
  });

  it('refuses a body past the limit after reading the rest of it', async () => {
    const { port, read } = await bodyServer(16);
    await expect(post(port, [Buffer.from('x'.repeat(10)), Buffer.from('y'.repeat(10))])).resolves.toBe('refused');
    expect(await read()).toEqual({ ok: false, tooLarge: true });
  });

  it('ends the read with a reason when the client leaves in the middle of its body', async () => {
    const { port, started, read } = await bodyServer(1024);
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-length': '100' } });
    outgoing.on('error', () => undefined);
    outgoing.write('{"jsonrpc":');
    await started();
    outgoing.destroy();
    const body = await read();
    expect(body).toMatchObject({ ok: false, tooLarge: false });
    expect(typeof (body as { reason?: unknown }).reason).toBe('string');
  });
});

describe('fromNodeRequest requestInfo', () => {
  it('takes each request\'s URL from its own Host header, whichever Host came before it', async () => {
    const urls = new Queue<string>();
    server = createServer((req, res) => {
      urls.push(fromNodeRequest(req, res).requestInfo().url);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (host: string, path: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const outgoing = request({ host: '127.0.0.1', port, path, headers: { host } }, (incoming) => {
          incoming.resume();
          incoming.on('end', resolve);
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    const cases: [host: string, path: string, url: string][] = [
      ['a.example:3000', '/mcp', 'http://a.example:3000/mcp'],
      ['a.example:3000', '/mcp?x=1', 'http://a.example:3000/mcp?x=1'],
      ['b.example', '/mcp', 'http://b.example/mcp'],
      ['user@b.example', '/mcp', 'http://localhost/mcp'],
      ['b.example', '/other', 'http://b.example/other'],
      ['[::1]:8080', '/mcp', 'http://[::1]:8080/mcp'],
      ['a.example:3000', '/mcp', 'http://a.example:3000/mcp'],
    ];
    for (const [host, path, url] of cases) {
      await get(host, path);
      expect(await urls.take()).toBe(url);
    }
  });
});
