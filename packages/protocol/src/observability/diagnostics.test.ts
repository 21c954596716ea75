import { readFile } from 'node:fs/promises';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CHANNEL_NAMES, hasDiagnosticSubscribers, publishDiagnostic } from './diagnostics.js';
import type { InspectEvent } from './events.js';

const event = { type: 'diagnostic', at: 0, message: 'hello' } as unknown as InspectEvent;

describe('diagnostics channels', () => {
  it('imports no Node built-in at module load (browsers load the protocol package)', async () => {
    const source = await readFile(new URL('./diagnostics.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^import(?!\s+type)[^;]*['"]node:/m);
  });

  it('sees subscribers added after first use and publishes to them', () => {
    expect(hasDiagnosticSubscribers('diagnostic')).toBe(false);
    const seen: unknown[] = [];
    const listener = (message: unknown) => seen.push(message);
    subscribe(DIAGNOSTIC_CHANNEL_NAMES.diagnostic, listener);
    try {
      expect(hasDiagnosticSubscribers('diagnostic')).toBe(true);
      publishDiagnostic(event);
    } finally {
      unsubscribe(DIAGNOSTIC_CHANNEL_NAMES.diagnostic, listener);
    }
    expect(seen).toEqual([event]);
    expect(hasDiagnosticSubscribers('diagnostic')).toBe(false);
  });
});
