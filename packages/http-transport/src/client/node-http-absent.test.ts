import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claimNodeBody, hasBody, nodeDefaultFetch, responseHeader } from './node-http-absent.js';

describe('#node-http-fetch under the browser condition', () => {
  it('has no Node default, so the transports take the global fetch', () => {
    expect(nodeDefaultFetch()).toBeUndefined();
  });

  it('reads every response as a web one', async () => {
    const response = new Response('hello', { headers: { 'Content-Type': 'text/plain', 'Mcp-Session-Id': 'abc' } });
    expect(claimNodeBody(response)).toBeUndefined();
    expect(responseHeader(response, 'mcp-session-id')).toBe('abc');
    expect(responseHeader(response, 'last-event-id')).toBeNull();
    expect(hasBody(response)).toBe(true);
    expect(hasBody(new Response(null, { status: 204 }))).toBe(false);
    expect(await response.text()).toBe('hello');
  });

  it('keeps the node:http client out of a browser bundle of the transports, and in a Node one', async () => {
    const bundle = async (platform: 'browser' | 'node') => {
      const result = await build({
        entryPoints: [fileURLToPath(new URL('./transport-fetch.ts', import.meta.url))],
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        conditions: ['@statemcp/source'],
        // Other packages stay imports; the package's own `#node-http-fetch` is resolved.
        plugins: [{ name: 'external-packages', setup: (b) => b.onResolve({ filter: /^[^.#/]/ }, (args) => ({ path: args.path, external: true })) }],
        metafile: true,
        logLevel: 'silent',
      });
      return Object.keys(result.metafile.inputs).map((path) => path.replace(/^(.*\/)?src\/client\//, ''));
    };
    expect(await bundle('browser')).toContain('node-http-absent.ts');
    expect(await bundle('browser')).not.toContain('node-http-fetch.ts');
    expect(await bundle('node')).toContain('node-http-fetch.ts');
  });
});
