// The committed baseline may only hold scenarios that later issues bring (2026-07-28 wire, OAuth,
// the tasks extension), and the runner must read the suite's report folders correctly.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SPEC_VERSIONS, baselineFor, readBaseline, readResults } from '../run.mjs';

const baselineText = readFileSync(new URL('../expected-failures.yaml', import.meta.url), 'utf8');

// Scenarios that exist only at the 2026-07-28 wire (`conformance list --spec-version 2026-07-28`
// minus the carried-forward ones), plus the skills extension, whose scenarios start with the
// 2026-07-28 `server/discover`.
const WIRE_2026 = new Set([
  'server-stateless',
  'sep-2164-resource-not-found',
  'caching',
  'http-header-validation',
  'http-custom-header-server-validation',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
]);

// The input-required-result-* (MRTR) scenarios pass and may not come back.
const laterIssue = (name) => name.startsWith('auth/') || name.startsWith('tasks-') || WIRE_2026.has(name);

describe('expected-failures.yaml', () => {
  const baseline = readBaseline(baselineText);

  it('lists only 2026-07-28, auth and tasks-extension scenarios', () => {
    const outside = [...baseline.server, ...baseline.client].filter((name) => !laterIssue(name));
    expect(outside).toEqual([]);
  });

  it('lists each scenario once per leg', () => {
    for (const names of [baseline.server, baseline.client]) expect(new Set(names).size).toBe(names.length);
  });

  it('puts client-only scenarios under client and server-only ones under server', () => {
    expect(baseline.server.some((name) => name.startsWith('auth/'))).toBe(false);
    expect(baseline.client.some((name) => name.startsWith('tasks-') || name.startsWith('input-required-result-'))).toBe(false);
  });
});

describe('baselineFor', () => {
  it('runs every leg with the default spec version and with 2026-07-28, each reading the shared baseline unless it has its own', () => {
    expect(SPEC_VERSIONS).toEqual([undefined, '2026-07-28']);
    const shared = new URL('../expected-failures.yaml', import.meta.url).pathname;
    expect(baselineFor(undefined)).toBe(shared);
    expect(baselineFor('2026-07-28')).toBe(shared);
  });
});

describe('readResults', () => {
  let dir;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts checks per scenario, nests auth scenarios and treats a missing checks.json as a failure', () => {
    dir = mkdtempSync(join(tmpdir(), 'statemcp-conformance-'));
    const write = (folder, checks) => {
      mkdirSync(join(dir, folder), { recursive: true });
      if (checks !== undefined) writeFileSync(join(dir, folder, 'checks.json'), JSON.stringify(checks));
    };
    write('server-ping-2026-11-22T00-46-22-592Z', [{ status: 'SUCCESS' }, { status: 'SUCCESS' }, { status: 'INFO' }]);
    write('auth/metadata-default-2026-11-22T00-46-22-600Z', [{ status: 'FAILURE' }, { status: 'SKIPPED' }]);
    write('sse-retry-2026-11-22T00-46-22-610Z', [{ status: 'SUCCESS' }, { status: 'WARNING' }]);
    write('server-sep-2640-skills-directory-2026-11-22T00-46-22-618Z', undefined);
    expect(readResults(dir)).toEqual([
      { name: 'auth/metadata-default', passed: 0, failed: 1, warnings: 0, skipped: 1, ok: false },
      { name: 'ping', passed: 2, failed: 0, warnings: 0, skipped: 0, ok: true },
      { name: 'sep-2640-skills-directory', passed: 0, failed: 1, warnings: 0, skipped: 0, ok: false },
      { name: 'sse-retry', passed: 1, failed: 0, warnings: 1, skipped: 0, ok: false },
    ]);
  });
});
