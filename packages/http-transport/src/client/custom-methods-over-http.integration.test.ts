/**
 * Custom (non-spec) methods over Streamable HTTP on real 127.0.0.1 sockets: `@statemcp/client`
 * calls a server's vendor method, the server's handler asks the client one back on the
 * request's own stream and reports progress, and unknown or undeclared methods fail as they
 * do in memory (-32601 from the server, `CapabilityNotSupportedError` locally).
 */
import { Client } from '@statemcp/client';
import { CapabilityNotSupportedError, type CustomSchema } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { createStreamableHttpServer, type ListeningServer } from '../server/index.js';
import { StreamableHttpClientTransport } from './streamable-http.js';

/** A hand-written Standard Schema (this package has no zod): any implementation of `~standard` will do. */
function schema<T>(name: string, test: (value: Record<string, unknown>) => boolean): CustomSchema<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => (typeof value === 'object' && value !== null && test(value as Record<string, unknown>) ? { value: value as T } : { issues: [{ message: `expected ${name}` }] }),
    },
  };
}

const Search = {
  params: schema<{ query: string }>('{ query: string }', (value) => typeof value.query === 'string'),
  result: schema<{ hits: string[] }>('{ hits: string[] }', (value) => Array.isArray(value.hits)),
};
const Confirm = {
  params: schema<{ question: string }>('{ question: string }', (value) => typeof value.question === 'string'),
  result: schema<{ ok: boolean }>('{ ok: boolean }', (value) => typeof value.ok === 'boolean'),
};

const running: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((listening) => listening.close()));
});

async function start(): Promise<string> {
  const mcp = new McpServer({ name: 'custom-over-http', version: '1.0.0' });
  mcp.method('com.example/search', Search, async ({ query }, context) => {
    await context.sendProgress(1, 2);
    const { ok } = await context.connection.request('com.example/confirm', { question: query }, { ...Confirm, relatedRequestId: context.requestId });
    await context.sendProgress(2, 2);
    return { hits: ok ? [`${query} over http`] : [] };
  });
  const http = createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) });
  const listening = await http.listen({ host: '127.0.0.1' });
  running.push(listening);
  return listening.url.href;
}

describe('custom methods over Streamable HTTP', () => {
  it('round-trips a custom request with a nested custom request and progress', async () => {
    const url = await start();
    // The legacy era: the nested server-to-client request needs the session's stream, and the capability is `experimental`.
    const client = new Client({ name: 'custom-client', version: '1.0.0' }, { defaultTimeoutMs: 10_000, era: 'legacy' });
    const asked: string[] = [];
    client.method('com.example/confirm', Confirm, ({ question }) => {
      asked.push(question);
      return { ok: true };
    });
    await client.connect(new StreamableHttpClientTransport(url));
    expect(client.serverCapabilities?.experimental).toEqual({ 'com.example/search': {} });
    const progress: number[] = [];
    const { hits } = await client.request('com.example/search', { query: 'q' }, { ...Search, onProgress: (update) => progress.push(update.progress) });
    expect(hits).toEqual(['q over http']);
    expect(asked).toEqual(['q']);
    expect(progress).toEqual([1, 2]);
    await expect(client.request('com.example/missing', {}, { optIn: false })).rejects.toMatchObject({ code: -32601 });
    await expect(client.request('com.example/missing', {})).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await client.close();
  });
});
