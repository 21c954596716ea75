import { describe, expect, it } from 'vitest';
import { acceptServerVersion, eraOf, negotiateServerVersion, proposeVersion } from './versions.js';

describe('versions', () => {
  it('rule 18: proposes the latest supported version', () => {
    expect(proposeVersion()).toBe('2025-11-25');
    expect(proposeVersion(['2024-11-05', '2025-03-26'])).toBe('2025-03-26');
  });

  it('rules 19–20: the server echoes a supported version or answers its latest', () => {
    expect(negotiateServerVersion('2025-03-26')).toBe('2025-03-26');
    expect(negotiateServerVersion('1.0.0')).toBe('2025-11-25');
    expect(negotiateServerVersion(undefined, ['2024-11-05'])).toBe('2024-11-05');
  });

  it('rule 21: the client refuses an unsupported answer with a typed error', () => {
    expect(acceptServerVersion('2024-11-05')).toBe('2024-11-05');
    expect(() => acceptServerVersion('2030-01-01')).toThrowError(expect.objectContaining({ code: 'UNSUPPORTED_PROTOCOL_VERSION', requested: '2030-01-01' }) as Error);
  });

  it('tells the era of a version', () => {
    expect(eraOf('2025-06-18')).toBe('legacy');
    expect(eraOf('2026-07-28')).toBe('modern');
  });
});
