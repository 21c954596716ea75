import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { RequestContext } from './options.js';
import { gatherInputResponses, inputRequestContext, retryParams } from './input-rounds.js';

const contextFor = (method: string): RequestContext => inputRequestContext(1, method, '2026-07-28', new AbortController().signal);

describe('gatherInputResponses', () => {
  it('keeps a "__proto__" key of the server as an answer key, never as a prototype', async () => {
    const inputRequests = JSON.parse('{"__proto__":{"method":"roots/list"},"constructor":{"method":"roots/list"}}') as JsonObject;
    const responses = await gatherInputResponses(inputRequests, (method) => Promise.resolve({ answeredFor: method }), contextFor);
    expect(Object.keys(responses)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(retryParams({ name: 'x' }, {}, responses))).inputResponses).toEqual(
      JSON.parse('{"__proto__":{"answeredFor":"roots/list"},"constructor":{"answeredFor":"roots/list"}}'),
    );
  });
});
