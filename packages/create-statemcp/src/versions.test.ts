import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packagedVersions } from './versions.js';

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function file(text: string | undefined): URL {
  const dir = mkdtempSync(join(tmpdir(), 'create-statemcp-versions-'));
  scratch.push(dir);
  if (text !== undefined) writeFileSync(join(dir, 'versions.json'), text);
  return pathToFileURL(join(dir, 'versions.json'));
}

describe('packagedVersions', () => {
  it('reads the ranges the build wrote', () => {
    expect(packagedVersions(file('{"@statemcp/server":"^0.2.0","zod":"^4.0.0"}'))).toEqual({ '@statemcp/server': '^0.2.0', zod: '^4.0.0' });
  });

  it('throws NOT_BUILT when the file is missing or not a map of ranges', () => {
    expect(() => packagedVersions(file(undefined))).toThrow(expect.objectContaining({ code: 'NOT_BUILT', message: expect.stringContaining('build create-statemcp first') }));
    expect(() => packagedVersions(file('{"zod":4}'))).toThrow(expect.objectContaining({ code: 'NOT_BUILT' }));
  });
});
