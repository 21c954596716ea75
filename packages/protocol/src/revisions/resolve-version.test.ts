import { describe, expect, it } from 'vitest';
import { eraOf } from '../versions.js';
import { getRevision, registerRevision } from './registry.js';
import { resolveRequestVersion, revisionFor, servedStatelessVersions } from './resolve-version.js';
import type { Revision } from './types.js';

const MODERN = '2026-07-28';
const DUAL = ['2024-11-05', '2025-11-25', MODERN];

describe('resolveRequestVersion', () => {
  it('serves the version _meta names when it is a served stateless one', () => {
    expect(resolveRequestVersion(DUAL, undefined, MODERN)).toEqual({ kind: 'served', revision: getRevision(MODERN) });
  });

  it('reads the header only when the body names no version, and only a stateless-era header', () => {
    expect(resolveRequestVersion(DUAL, MODERN, undefined)).toMatchObject({ kind: 'served', revision: { version: MODERN } });
    expect(resolveRequestVersion(DUAL, '2025-11-25', undefined)).toEqual({ kind: 'unnamed' });
    expect(resolveRequestVersion(DUAL, '1900-01-01', undefined)).toEqual({ kind: 'unnamed' });
    expect(resolveRequestVersion(DUAL, undefined, undefined)).toEqual({ kind: 'unnamed' });
  });

  it('refuses an unknown, an unserved or a handshake-era version with -32022 naming the stateless versions served', () => {
    for (const requested of ['1900-01-01', '2025-11-25']) {
      expect(resolveRequestVersion(DUAL, undefined, requested)).toEqual({
        kind: 'unsupported',
        refusal: { code: -32022, message: `Unsupported protocol version: ${requested}`, data: { supported: [MODERN], requested } },
      });
    }
    expect(resolveRequestVersion(['2025-11-25'], undefined, MODERN)).toMatchObject({ kind: 'unsupported', refusal: { data: { supported: [] } } });
  });

  it('serves a registered second stateless revision beside the first, newest first', () => {
    const unregister = registerRevision({ ...(getRevision(MODERN) as Revision), version: '2099-01-01' });
    try {
      const supported = [...DUAL, '2099-01-01'];
      expect(servedStatelessVersions(supported)).toEqual(['2099-01-01', MODERN]);
      expect(resolveRequestVersion(supported, undefined, '2099-01-01')).toMatchObject({ kind: 'served', revision: { version: '2099-01-01' } });
      expect(eraOf('2099-01-01')).toBe('modern');
      expect(() => registerRevision(getRevision(MODERN) as Revision)).toThrow(RangeError);
    } finally {
      unregister();
    }
    expect(getRevision('2099-01-01')).toBeUndefined();
  });
});

describe('eraOf and revisionFor', () => {
  it('puts a version no revision describes in the handshake era, as discovery does', () => {
    expect(eraOf('1900-01-01')).toBe('legacy');
    expect(eraOf(MODERN)).toBe('modern');
    expect(revisionFor('1900-01-01').version).toBe('2025-11-25');
  });
});
