/** The method policy: one pure verdict per method, revision, role, way and capabilities. */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { Role } from '../machines/connection-types.js';
import { getRevision } from '../revisions/registry.js';
import type { Revision } from '../revisions/types.js';
import { hasReturnChannel, notificationVerdict, requestSpec, requestVerdict, type MethodPolicyContext } from './method-policy.js';

function revision(version: string): Revision {
  const found = getRevision(version);
  if (found === undefined) throw new Error(`no revision ${version}`);
  return found;
}

function context(role: Role, version: string, own: JsonObject = {}, peer: JsonObject | undefined = {}, strictCapabilities = true): MethodPolicyContext {
  const rev = revision(version);
  return { role, strictCapabilities, revision: () => rev, ownCapabilities: () => own, peerCapabilities: () => peer };
}

describe('requestVerdict', () => {
  it('allows a client to send tools/call to a server that declared tools', () => {
    expect(requestVerdict(context('client', '2025-11-25', {}, { tools: {} }), 'tools/call', 'send', true)).toEqual({ kind: 'allowed' });
  });

  it('names the peer capability a request needs when the peer did not declare it', () => {
    expect(requestVerdict(context('client', '2025-11-25', {}, {}), 'resources/subscribe', 'send', true)).toEqual({ kind: 'undeclared', holder: 'peer', path: ['resources', 'subscribe'] });
  });

  it('names this side’s capability when a request arrives for one it did not declare', () => {
    expect(requestVerdict(context('server', '2025-11-25', {}, {}), 'prompts/list', 'receive', true)).toEqual({ kind: 'undeclared', holder: 'local', path: ['prompts'] });
  });

  it('relaxes capability checks when strictCapabilities is false or the caller skips them', () => {
    expect(requestVerdict(context('client', '2025-11-25', {}, {}, false), 'tools/list', 'send', true).kind).toBe('allowed');
    expect(requestVerdict(context('client', '2025-11-25'), 'tools/list', 'send', true, true).kind).toBe('allowed');
  });

  it('refuses a request from the wrong side in both ways', () => {
    expect(requestVerdict(context('client', '2025-11-25'), 'sampling/createMessage', 'send', true).kind).toBe('wrongDirection');
    expect(requestVerdict(context('server', '2025-11-25', { tools: {} }), 'sampling/createMessage', 'receive', true).kind).toBe('wrongDirection');
  });

  it('refuses a server request without a return channel, before any capability check', () => {
    expect(requestVerdict(context('server', '2025-11-25', {}, {}), 'roots/list', 'send', false).kind).toBe('noReturnChannel');
  });

  it('finds no method the revision lacks: ping in 2026-07-28, sampling/createMessage there, names of Object.prototype', () => {
    expect(requestVerdict(context('client', '2026-07-28'), 'ping', 'send', true).kind).toBe('absent');
    expect(requestVerdict(context('server', '2026-07-28'), 'sampling/createMessage', 'send', true).kind).toBe('absent');
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(requestVerdict(context('server', '2025-11-25'), name, 'receive', true).kind).toBe('absent');
      expect(requestSpec(revision('2025-11-25'), name)).toBeUndefined();
    }
  });

  it('always allows initialize, and ping where the revision has it', () => {
    expect(requestVerdict(context('client', '2025-11-25', {}, undefined), 'initialize', 'send', true).kind).toBe('allowed');
    expect(requestVerdict(context('server', '2024-11-05'), 'ping', 'send', false).kind).toBe('allowed');
  });
});

describe('notificationVerdict', () => {
  it('needs this side’s capability for a notification it sends', () => {
    expect(notificationVerdict(context('server', '2025-11-25', {}), 'notifications/tools/list_changed')).toEqual({ kind: 'undeclared', holder: 'local', path: ['tools', 'listChanged'] });
    expect(notificationVerdict(context('server', '2025-11-25', { tools: { listChanged: true } }), 'notifications/tools/list_changed').kind).toBe('allowed');
  });

  it('finds no notification the revision lacks, but lets experimental ones and the lifecycle’s own through', () => {
    expect(notificationVerdict(context('client', '2025-11-25'), 'notifications/nope').kind).toBe('absent');
    expect(notificationVerdict(context('client', '2025-11-25'), 'notifications/experimental/x').kind).toBe('allowed');
    expect(notificationVerdict(context('client', '2026-07-28'), 'notifications/initialized').kind).toBe('allowed');
  });
});

describe('hasReturnChannel', () => {
  it('is true for a client, and for a server only where the revision and the transport carry server requests', () => {
    expect(hasReturnChannel('client', revision('2026-07-28'), { canSendRequests: false })).toBe(true);
    expect(hasReturnChannel('server', revision('2025-11-25'), {})).toBe(true);
    expect(hasReturnChannel('server', revision('2025-11-25'), { canSendRequests: false })).toBe(false);
    expect(hasReturnChannel('server', revision('2026-07-28'), {})).toBe(false);
  });
});
