import { describe, expect, it } from 'vitest';
import { capabilityFor, hasCapability } from './table.js';

describe('capability table', () => {
  it('names the receiver for requests and the sender for notifications', () => {
    expect(capabilityFor('tools/call', '2025-11-25', 'server')).toMatchObject({ holder: 'server', path: ['tools'] });
    expect(capabilityFor('sampling/createMessage', '2025-11-25', 'client')).toMatchObject({ holder: 'client', path: ['sampling'] });
    expect(capabilityFor('notifications/roots/list_changed', '2025-11-25', 'server')).toMatchObject({ holder: 'client', path: ['roots', 'listChanged'] });
    expect(capabilityFor('tasks/list', '2025-11-25', 'client')).toMatchObject({ holder: 'client', path: ['tasks', 'list'] });
    expect(capabilityFor('ping', '2025-11-25', 'server')).toBeUndefined();
  });

  it('needs no completions flag before 2025-03-26', () => {
    expect(capabilityFor('completion/complete', '2024-11-05', 'server')).toBeUndefined();
    expect(capabilityFor('completion/complete', '2025-03-26', 'server')).toMatchObject({ path: ['completions'] });
  });

  it('reads nested capability paths', () => {
    expect(hasCapability({ resources: { subscribe: true } }, ['resources', 'subscribe'])).toBe(true);
    expect(hasCapability({ resources: {} }, ['resources', 'subscribe'])).toBe(false);
    expect(hasCapability({ resources: { subscribe: false } }, ['resources', 'subscribe'])).toBe(false);
    expect(hasCapability(undefined, ['tools'])).toBe(false);
  });

  it('finds no requirement for a method named like an Object.prototype member', () => {
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(capabilityFor(method, '2025-11-25', 'server')).toBeUndefined();
  });

  it('counts only own members of a capabilities object', () => {
    expect(hasCapability({}, ['constructor'])).toBe(false);
    expect(hasCapability({ tools: {} }, ['tools', 'toString'])).toBe(false);
    expect(hasCapability(JSON.parse('{"constructor":{}}'), ['constructor'])).toBe(true);
  });
});
