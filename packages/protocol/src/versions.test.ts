import { describe, expect, it } from 'vitest';
import {
  LATEST_MODERN_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  acceptServerVersion,
  eraOf,
  isModernVersion,
  negotiateServerVersion,
  proposeVersion,
} from './versions.js';

describe('versions', () => {
  it('proposes the latest supported version', () => {
    expect(proposeVersion()).toBe('2025-11-25');
    expect(proposeVersion(['2024-11-05', '2025-03-26'])).toBe('2025-03-26');
  });

  it('the server echoes a supported version or answers its latest', () => {
    expect(negotiateServerVersion('2025-03-26')).toBe('2025-03-26');
    expect(negotiateServerVersion('1.0.0')).toBe('2025-11-25');
    expect(negotiateServerVersion(undefined, ['2024-11-05'])).toBe('2024-11-05');
  });

  it('the client refuses an unsupported answer with a typed error', () => {
    expect(acceptServerVersion('2024-11-05')).toBe('2024-11-05');
    expect(() => acceptServerVersion('2030-01-01')).toThrowError(expect.objectContaining({ code: 'UNSUPPORTED_PROTOCOL_VERSION', requested: '2030-01-01' }) as Error);
  });

  it('tells the era of a version', () => {
    expect(eraOf('2025-06-18')).toBe('legacy');
    expect(eraOf('2026-07-28')).toBe('modern');
  });

  it('lists the stateless revisions apart from the handshake ones', () => {
    expect(MODERN_PROTOCOL_VERSIONS).toEqual(['2026-07-28']);
    expect(LATEST_MODERN_PROTOCOL_VERSION).toBe('2026-07-28');
    expect(isModernVersion('2026-07-28')).toBe(true);
    expect(isModernVersion('2025-11-25')).toBe(false);
    expect(MODERN_PROTOCOL_VERSIONS.some((version) => (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version))).toBe(false);
  });

  it('never negotiates the stateless revision in a legacy initialize by default', () => {
    expect(negotiateServerVersion('2026-07-28')).toBe('2025-11-25');
    expect(() => acceptServerVersion('2026-07-28')).toThrowError(expect.objectContaining({ code: 'UNSUPPORTED_PROTOCOL_VERSION' }) as Error);
  });
});
