// Issue 18, item 6: 64 concurrent calls on one HTTP client, with the default fetch and with
// the global fetch, then 1 500 more in rounds of 64. One abort listener per in-flight
// request, removed when it settles: the process must print no `MaxListenersExceededWarning`
// at any concurrency, and none may pile up over many calls.
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFixture } from '../src/http-fixture.js';

const CONCURRENT = 64;
const ROUNDS = Math.ceil(1500 / CONCURRENT);

/** Lets `process.emitWarning`'s deferred 'warning' events arrive. */
const settleWarnings = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe(`${String(CONCURRENT)} concurrent calls on one Streamable HTTP client`, () => {
  let fixture: HttpFixture;
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
  };

  beforeAll(async () => {
    fixture = await HttpFixture.start();
    process.on('warning', onWarning);
  });

  afterAll(async () => {
    process.off('warning', onWarning);
    await fixture.close();
  });

  describe.each([
    { name: 'the global fetch', fetch: globalThis.fetch },
    { name: 'the default fetch', fetch: undefined },
  ])('with $name', ({ fetch }) => {
    it('completes every call and prints no MaxListenersExceededWarning', async () => {
      warnings.length = 0;
      const transport = new StreamableHttpClientTransport(new URL(fixture.url), fetch === undefined ? {} : { fetch });
      const client = new Client({ name: 'fault-suite-concurrency', version: '1.0.0' });
      await client.connect(transport, { timeoutMs: 10_000 });
      try {
        // `gate` answers only once all 64 calls are in flight at the server at the same time.
        const results = await Promise.all(
          Array.from({ length: CONCURRENT }, () => client.callTool({ name: 'gate', arguments: { count: CONCURRENT } }, { timeoutMs: 20_000 })),
        );
        expect(results.every((result) => result.content[0]?.type === 'text')).toBe(true);
        // Then 1 500 more in rounds of 64, so listeners left behind by any round would add up.
        for (let round = 0; round < ROUNDS; round += 1) {
          await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => client.callTool({ name: 'echo', arguments: { text: String(i) } })));
        }
      } finally {
        await client.close();
      }
      await settleWarnings();
      const first = warnings.slice(0, 3).map((warning) => warning.message);
      expect(warnings.length, `MaxListenersExceededWarning, first ones: ${first.join(' | ')}`).toBe(0);
    });
  });
});
