import { describe, expect, it } from 'vitest';
import { hasFeature } from '@statemcp/protocol/internal';
import { capabilitiesFor, implementationFor, promptFor, resourceFor, toolFor } from './revision-features.js';

describe('revision features', () => {
  describe('hasFeature', () => {
    it('compares revisions by date', () => {
      expect(hasFeature('2025-06-18', 'title')).toBe(true);
      expect(hasFeature('2025-03-26', 'title')).toBe(false);
      expect(hasFeature('2025-11-25', 'tasks')).toBe(true);
    });
  });

  describe('implementationFor', () => {
    it('drops unknown keys and fields the revision lacks', () => {
      const info = { name: 'n', version: '1', title: 'T', description: 'd', websiteUrl: 'w', icons: [], extra: 1 } as never;
      expect(implementationFor(info, '2024-11-05')).toEqual({ name: 'n', version: '1' });
      expect(implementationFor(info, '2025-06-18')).toEqual({ name: 'n', version: '1', title: 'T' });
      expect(implementationFor(info, '2025-11-25')).toEqual({ name: 'n', version: '1', title: 'T', description: 'd', websiteUrl: 'w', icons: [] });
    });
  });

  describe('capabilitiesFor', () => {
    it('drops completions before 2025-03-26 and tasks before 2025-11-25', () => {
      const caps = { logging: {}, completions: {}, tasks: {} };
      expect(capabilitiesFor(caps, '2024-11-05')).toEqual({ logging: {} });
      expect(capabilitiesFor(caps, '2025-06-18')).toEqual({ logging: {}, completions: {} });
      expect(capabilitiesFor(caps, '2025-11-25')).toEqual(caps);
    });
  });

  describe('toolFor / resourceFor / promptFor', () => {
    it('keeps the inputSchema object itself (no copy)', () => {
      const inputSchema = { type: 'object' as const };
      expect(toolFor({ name: 't', inputSchema }, '2024-11-05').inputSchema).toBe(inputSchema);
    });

    it('shapes resources and prompts', () => {
      expect(resourceFor({ uri: 'u', name: 'n', title: 't', icons: [] }, '2025-03-26')).toEqual({ uri: 'u', name: 'n' });
      expect(promptFor({ name: 'p', title: 'P', arguments: [{ name: 'a', title: 'A', required: true }] }, '2025-03-26')).toEqual({ name: 'p', arguments: [{ name: 'a', required: true }] });
    });
  });
});
