/**
 * `bundleNodeScript`: the bundle runs under plain `node`, with the workspace's packages inside it
 * (from source) and third-party packages imported from the files the test itself resolves.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ErrorCode } from '@statemcp/protocol';
import { version } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleNodeScript } from '../src/node-bundle.js';

const run = promisify(execFile);
const entry = fileURLToPath(new URL('./fixtures/bundle-entry.ts', import.meta.url));

describe('bundleNodeScript', () => {
  it('bundles a TypeScript entry that runs under plain node with its arguments', async () => {
    const bundle = await bundleNodeScript(entry);
    const { stdout } = await run(process.execPath, [bundle, 'one', 'two']);
    expect(JSON.parse(stdout)).toMatchObject({ parseError: ErrorCode.ParseError, esbuild: version, argv: ['one', 'two'] });
  });

  it("keeps each file's own import.meta.url, so createRequire and relative URLs resolve from the source's directory", async () => {
    const { stdout } = await run(process.execPath, [await bundleNodeScript(entry)]);
    const printed = JSON.parse(stdout) as { url: string; schema: { valid: string; invalid: string } };
    expect(printed.url).toBe(pathToFileURL(entry).href);
    expect(printed.schema.valid).toBe('valid');
    expect(printed.schema.invalid).toMatch(/text/);
    expect(printed.schema.invalid).not.toMatch(/could not be compiled/);
  });

  it('keeps workspace packages inside the bundle and imports third-party ones by absolute path', async () => {
    const text = readFileSync(await bundleNodeScript(entry), 'utf8');
    expect(text).not.toMatch(/from\s+"@statemcp\//);
    expect(text).toMatch(/from\s+"\/[^"]*\/node_modules\/[^"]*esbuild[^"]*"/);
  });

  it('bundles an entry once per process', async () => {
    expect(await bundleNodeScript(entry)).toBe(await bundleNodeScript(entry));
  });
});
