import { MessageTooLargeError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createNodeHttpFetch } from './node-http-fetch.js';
import { discardBody, readSseBody, readText } from './response-body.js';
import { SseParser } from '../shared/sse-parse.js';
import { serverPerTest } from './test-http-server.js';

const servers = serverPerTest();
const serve = servers.serve;

function collector(): { parser: SseParser; events: string[] } {
  const events: string[] = [];
  return { parser: new SseParser({ onEvent: (event) => events.push(event.data) }), events };
}

const sources = {
  // Each test gets its own agent through a fresh fetch, so socket reuse is its own.
  nodeHttpFetch: () => createNodeHttpFetch({}),
  'the global fetch': () => globalThis.fetch.bind(globalThis),
} satisfies Record<string, () => typeof fetch>;

describe.each(Object.entries(sources))('readSseBody over %s', (_name, makeFetch) => {
  it('feeds every event, split anywhere (even inside a multi-byte character), until the body ends', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = Buffer.from('id: 1\ndata: caf\u00e9 \u{1F600}\n\ndata: two\n\n', 'utf8');
      res.write(bytes.subarray(0, 16));
      setTimeout(() => res.end(bytes.subarray(16)), 20);
    });
    const { parser, events } = collector();
    await readSseBody(await makeFetch()(base), parser);
    expect(events).toEqual(['caf\u00e9 \u{1F600}', 'two']);
  });

  it('stops once isComplete says so, and rejects with the reason when aborted', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: only\n\n');
    });
    const complete = collector();
    await readSseBody(await makeFetch()(base), complete.parser, undefined, () => complete.events.length === 1);
    expect(complete.events).toEqual(['only']);

    const controller = new AbortController();
    const aborted = collector();
    const reading = readSseBody(await makeFetch()(base, { signal: controller.signal }), aborted.parser, controller.signal);
    controller.abort(new Error('stop'));
    await expect(reading).rejects.toThrow('stop');
  });

  it('rejects when the server cuts the body before its end', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      setTimeout(() => res.destroy(), 20);
    });
    const { parser, events } = collector();
    await expect(readSseBody(await makeFetch()(base), parser)).rejects.toThrow();
    expect(events).toEqual(['first']);
  });

  it('keeps the keep-alive socket when the answer and the end of the body come together', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: answer\n\n');
    });
    const fetch = makeFetch();
    for (let i = 0; i < 5; i++) {
      const { parser, events } = collector();
      await readSseBody(await fetch(base, { method: 'POST', body: '{}' }), parser, undefined, () => events.length === 1);
      expect(events).toEqual(['answer']);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(servers.current?.connections).toBe(1);
  });
});

describe('discardBody', () => {
  it('drains a nodeHttpFetch body so its socket is reused, and leaves the web body usable otherwise', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ignored":true}');
    });
    const fetch = createNodeHttpFetch({});
    for (let i = 0; i < 3; i++) {
      await discardBody(await fetch(base));
      // The socket goes back to the pool when the drained body has ended.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect((await fetch(base)).json()).resolves.toEqual({ ignored: true });
    expect(servers.current?.connections).toBe(1);
  });
});

describe('readText', () => {
  it('reads a body sent in pieces as response.text() does (BOM dropped, split characters joined)', async () => {
    const bytes = Buffer.from('\uFEFF{"text":"caf\u00e9 \u{1F600}"}', 'utf8');
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(bytes.subarray(0, 14));
      setTimeout(() => res.end(bytes.subarray(14)), 20);
    });
    const expected = await (await globalThis.fetch(base)).text();
    expect(expected).toBe('{"text":"caf\u00e9 \u{1F600}"}');
    await expect(readText(await createNodeHttpFetch({})(base), 1024, 'The body')).resolves.toBe(expected);
  });

  it('rejects when the server cuts the body', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.destroy(), 20);
    });
    await expect(readText(await createNodeHttpFetch({})(base), 1024, 'The body')).rejects.toThrow();
  });

  it.each([
    ['nodeHttpFetch', () => createNodeHttpFetch({})],
    ['the global fetch', () => globalThis.fetch],
  ] as const)('rejects a body past the bound with MessageTooLargeError and cuts it (%s)', async (_name, makeFetch) => {
    let closedEarly: (cut: boolean) => void = () => undefined;
    const cut = new Promise<boolean>((resolve) => (closedEarly = resolve));
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => closedEarly(!res.writableFinished));
      let sent = 0;
      const pump = (): void => {
        while (sent < 64 * 1024 * 1024) {
          sent += 16 * 1024;
          if (!res.write('x'.repeat(16 * 1024))) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    });
    const read = readText(await makeFetch()(base), 100 * 1024, 'The JSON response from the test server');
    await expect(read).rejects.toBeInstanceOf(MessageTooLargeError);
    await expect(read).rejects.toThrow('The JSON response from the test server exceeded the 100 KiB limit');
    expect(await cut).toBe(true);
  });
});
