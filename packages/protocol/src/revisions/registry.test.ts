import { describe, it, expect } from 'vitest';
import { McpError, type UnsupportedProtocolVersionError } from '../errors/errors.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, proposeVersion } from '../versions.js';
import { REVISIONS, getRevision, hasFeature, requireRevision, supportedVersions } from './registry.js';
import { revision_2025_06_18 } from './v2025-06-18.js';
import { revision_2026_07_28 } from './v2026-07-28.js';

describe('revision registry', () => {
  describe('#REVISIONS', () => {
    it('holds every legacy and modern version, keyed by its own version string', () => {
      expect([...REVISIONS.keys()]).toEqual([...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]);
      for (const [version, revision] of REVISIONS) expect(revision.version).toBe(version);
    });
  });

  describe('#getRevision', () => {
    it('returns the revision of a known version', () => {
      expect(getRevision('2025-06-18')).toBe(revision_2025_06_18);
      expect(getRevision('2026-07-28')).toBe(revision_2026_07_28);
      expect(getRevision('2026-07-28')?.era).toBe('modern');
    });

    it('keeps the stateless revision out of legacy negotiation: a session never proposes it in initialize', () => {
      expect(proposeVersion()).toBe('2025-11-25');
      expect(LEGACY_PROTOCOL_VERSIONS).not.toContain('2026-07-28');
    });

    it('returns undefined for an unknown version', () => {
      expect(getRevision('1.0.0')).toBeUndefined();
      expect(getRevision('toString')).toBeUndefined();
    });
  });

  describe('#requireRevision', () => {
    it('returns the revision of a known version', () => {
      expect(requireRevision('2024-11-05').version).toBe('2024-11-05');
    });

    it('throws UnsupportedProtocolVersionError naming the supported versions when unknown', () => {
      let thrown: unknown;
      try {
        requireRevision('2099-01-01');
      } catch (error) {
        thrown = error;
      }
      // Checked by brand, name and code: see the report about `instanceof` on McpError subclasses.
      expect(thrown).toBeInstanceOf(McpError);
      expect((thrown as McpError).name).toBe('UnsupportedProtocolVersionError');
      expect((thrown as McpError).code).toBe('UNSUPPORTED_PROTOCOL_VERSION');
      expect((thrown as UnsupportedProtocolVersionError).requested).toBe('2099-01-01');
      expect((thrown as UnsupportedProtocolVersionError).supported).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
    });
  });

  describe('#supportedVersions', () => {
    it('lists the versions oldest first as a fresh array', () => {
      const versions = supportedVersions();
      expect(versions).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
      versions.pop();
      expect(supportedVersions()).toHaveLength(5);
    });
  });

  describe('#hasFeature', () => {
    it('reads the rule from the revision data', () => {
      expect(hasFeature('2025-03-26', 'batching')).toBe(true);
      expect(hasFeature('2025-06-18', 'batching')).toBe(false);
      expect(hasFeature('2025-11-25', 'tasks')).toBe(true);
      expect(hasFeature('2025-06-18', 'tasks')).toBe(false);
      expect(hasFeature('2026-07-28', 'tasks')).toBe(false);
      expect(hasFeature('2026-07-28', 'perRequestMeta')).toBe(true);
      expect(hasFeature('2025-11-25', 'handshake')).toBe(true);
      expect(hasFeature('2026-07-28', 'handshake')).toBe(false);
    });

    it('switches nothing on for a version it does not know, even one that sorts later', () => {
      expect(hasFeature('9999-12-31', 'batching')).toBe(false);
      expect(hasFeature('9999-12-31', 'perRequestMeta')).toBe(false);
      expect(hasFeature(undefined, 'progressMessage')).toBe(false);
    });
  });

  it('has method tables without a prototype: a wire method named like an Object.prototype member finds no spec', () => {
    for (const revision of REVISIONS.values()) {
      for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        expect(revision.requests[method]).toBeUndefined();
        expect(revision.notifications[method]).toBeUndefined();
      }
      expect(Object.isFrozen(revision.requests)).toBe(true);
    }
  });
});
