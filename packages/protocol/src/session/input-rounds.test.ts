import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { RequestContext } from './options.js';
import { gatherInputResponses, inputRequestContext, retryParams } from './input-rounds.js';

const contextFor = (method: string, key?: string): RequestContext => inputRequestContext(1, method, '2026-07-28', new AbortController().signal, key);

describe('gatherInputResponses', () => {
  it('keeps a "__proto__" key of the server as an answer key, never as a prototype', async () => {
    const inputRequests = JSON.parse('{"__proto__":{"method":"roots/list"},"constructor":{"method":"roots/list"}}') as JsonObject;
    const responses = await gatherInputResponses(inputRequests, (method) => Promise.resolve({ answeredFor: method }), contextFor);
    expect(Object.keys(responses)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(retryParams({ name: 'x' }, {}, responses))).inputResponses).toEqual(
      JSON.parse('{"__proto__":{"answeredFor":"roots/list"},"constructor":{"answeredFor":"roots/list"}}'),
    );
  });

  it("gives each handler its request's key", async () => {
    const inputRequests: JsonObject = { user_name: { method: 'elicitation/create', params: {} }, files: { method: 'roots/list' } };
    const responses = await gatherInputResponses(inputRequests, (_method, _params, context) => Promise.resolve({ key: context.inputKey ?? null }), contextFor);
    expect(responses).toEqual({ user_name: { key: 'user_name' }, files: { key: 'files' } });
  });

  it('answers one after the other by default, all at once when concurrent', async () => {
    const inputRequests: JsonObject = { a: { method: 'roots/list' }, b: { method: 'roots/list' } };
    for (const concurrent of [false, true]) {
      const started: string[] = [];
      const release: (() => void)[] = [];
      const gathering = gatherInputResponses(
        inputRequests,
        (_method, _params, context) => {
          started.push(context.inputKey ?? '');
          return new Promise<JsonObject>((resolve) => release.push(() => resolve({ roots: [] })));
        },
        contextFor,
        concurrent,
      );
      await Promise.resolve();
      expect(started).toEqual(concurrent ? ['a', 'b'] : ['a']);
      while (release.length > 0) {
        release.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      await expect(gathering).resolves.toEqual({ a: { roots: [] }, b: { roots: [] } });
      expect(started).toEqual(['a', 'b']);
    }
  });
});
