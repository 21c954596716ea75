/** The rows of a session the server forgot (MCP 2025-11-25 Transports §Session Management): Initializing, phase `resuming`. */
import { describe, expect, it } from 'vitest';
import { CONNECTION_TABLE, transition } from './connection.js';
import { CONNECTION_EVENT_TYPES, type ConnectionConfig, type ConnectionEvent, type ConnectionState, type PeerInfo } from './connection-types.js';
import { revisionFor } from '../revisions/resolve-version.js';

const peer: PeerInfo = { capabilities: { tools: { listChanged: true } }, info: { name: 'server', version: '1' } };
const client: ConnectionConfig = { role: 'client', strictInitialized: false };
const server: ConnectionConfig = { role: 'server', strictInitialized: false };
const operating = (config: ConnectionConfig = client): ConnectionState => ({ kind: 'operating', config, version: '2025-11-25', revision: revisionFor('2025-11-25'), peer });
const expired = (replacement = false, answered = true): ConnectionEvent => ({ type: 'sessionExpired', replacement, answered });
const resumed = (): ConnectionState => transition(operating(), expired()).state;
const effectTypes = (state: ConnectionState, event: ConnectionEvent): string[] => transition(state, event).effects.map((effect) => effect.type);

describe('Initializing, phase resuming', () => {
  it('is entered from Operating and Initialized on a 404, remembering the session, and runs the handshake again', () => {
    for (const from of [operating(), { ...operating(), kind: 'initialized' } as ConnectionState]) {
      const step = transition(from, expired());
      expect(step.state).toEqual({ kind: 'initializing', phase: 'resuming', config: client, version: '2025-11-25', peer, initializeSent: false });
      expect(step.effects).toEqual([{ type: 'reinitialize' }]);
    }
    // A replacement that answered a request proved itself: its own expiry is an ordinary one.
    expect(transition(operating(), expired(true, true)).state).toMatchObject({ kind: 'initializing', phase: 'resuming' });
    expect(effectTypes(operating(server), expired())).toEqual(['ignore']);
  });

  it('lets only its own initialize out, once, and holds every other request and notification in the ledger', () => {
    const first = transition(resumed(), { type: 'outboundRequest', method: 'initialize' });
    expect(first.effects).toEqual([{ type: 'accept' }]);
    expect(first.state).toMatchObject({ phase: 'resuming', initializeSent: true });
    expect(effectTypes(first.state, { type: 'outboundRequest', method: 'initialize' })).toEqual(['refuseOutbound']);
    for (const method of ['tools/call', 'ping']) {
      expect(effectTypes(first.state, { type: 'outboundRequest', method })).toEqual(['holdOutbound']);
      expect(effectTypes(first.state, { type: 'outboundRequest', method, waitForOperating: true })).toEqual(['holdOutbound']);
    }
    for (const method of ['notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed']) {
      expect(effectTypes(first.state, { type: 'outboundNotification', method })).toEqual(['holdOutbound']);
    }
  });

  it("still takes the old session's traffic: notifications and requests are handled, a second initialize refused", () => {
    expect(effectTypes(resumed(), { type: 'inboundNotification', method: 'notifications/tools/list_changed' })).toEqual(['accept']);
    expect(effectTypes(resumed(), { type: 'inboundRequest', method: 'roots/list' })).toEqual(['accept']);
    expect(effectTypes(resumed(), { type: 'inboundRequest', method: 'initialize' })).toEqual(['rejectInbound']);
  });

  it('continues the session when the new handshake agrees: initialized, then notifications/initialized releases the ledger', () => {
    const step = transition(resumed(), { type: 'initializeSucceeded', version: '2025-11-25', peer });
    expect(step.state).toEqual({ kind: 'initialized', config: client, version: '2025-11-25', revision: revisionFor('2025-11-25'), peer });
    expect(step.effects).toEqual([{ type: 'negotiated', version: '2025-11-25' }, { type: 'sendInitialized' }]);
    // A message the transport bounced may arrive now: it waits for the release with the others.
    expect(effectTypes(step.state, { type: 'outboundNotification', method: 'notifications/roots/list_changed', waitForOperating: true })).toEqual(['holdOutbound']);
    expect(effectTypes(step.state, { type: 'outboundRequest', method: 'tools/call', waitForOperating: true })).toEqual(['holdOutbound']);
    expect(effectTypes(step.state, { type: 'outboundNotification', method: 'notifications/roots/list_changed' })).toEqual(['refuseOutbound']);
    const up = transition(step.state, { type: 'outboundNotification', method: 'notifications/initialized' });
    expect(up.state.kind).toBe('operating');
    expect(up.effects).toEqual([{ type: 'accept' }, { type: 'releaseOutbound' }]);
  });

  it('ends the session with SessionChangedError on a new version or a lost capability, never a silent switch', () => {
    const moved = transition(resumed(), { type: 'initializeSucceeded', version: '2025-06-18', peer });
    expect(moved.state).toMatchObject({ kind: 'shuttingDown', reason: 'sessionChanged', error: { code: 'SESSION_CHANGED', category: 'interrupted' } });
    expect(moved.state.kind === 'shuttingDown' && moved.state.error?.message).toContain('2025-06-18 instead of 2025-11-25');
    const rich = { ...peer, capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } };
    const fromRich = transition({ ...operating(), peer: rich } as ConnectionState, expired()).state;
    const poorer = transition(fromRich, { type: 'initializeSucceeded', version: '2025-11-25', peer: { ...peer, capabilities: { tools: {} } } });
    expect(poorer.state.kind === 'shuttingDown' && poorer.state.error?.message).toContain('no longer declares tools.listChanged, resources');
    const richer = transition(fromRich, { type: 'initializeSucceeded', version: '2025-11-25', peer: { ...peer, capabilities: { ...rich.capabilities, prompts: {} } } });
    expect(richer.state.kind).toBe('initialized');
  });

  it('ends the session when the new handshake fails', () => {
    const failed = transition(resumed(), { type: 'initializeFailed', reason: 'initializeFailed', error: new Error('HTTP 500') });
    expect(failed.state).toMatchObject({ kind: 'shuttingDown', reason: 'initializeFailed' });
    expect(failed.effects.map((effect) => effect.type)).toEqual(['settleOutbound', 'abortInbound', 'closeTransport', 'armCloseDeadline']);
  });

  describe('404 after replacement', () => {
    it('fails the connection with SessionExpiredError on a second 404 during the re-handshake', () => {
      const step = transition(resumed(), expired());
      expect(step.state).toMatchObject({ kind: 'shuttingDown', reason: 'sessionExpired', error: { name: 'SessionExpiredError', code: 'SESSION_EXPIRED', category: 'interrupted' } });
      expect(step.effects.map((effect) => effect.type)).toEqual(['settleOutbound', 'abortInbound', 'closeTransport', 'armCloseDeadline']);
    });

    it('fails the connection when the replacement is forgotten before it answered anything, from Initialized or Operating', () => {
      const replaced = transition(resumed(), { type: 'initializeSucceeded', version: '2025-11-25', peer }).state;
      for (const state of [replaced, transition(replaced, { type: 'outboundNotification', method: 'notifications/initialized' }).state]) {
        const step = transition(state, expired(true, false));
        expect(step.state).toMatchObject({ kind: 'shuttingDown', reason: 'sessionExpired', error: { code: 'SESSION_EXPIRED' } });
        expect(step.state.kind === 'shuttingDown' && step.state.error?.message).toContain('right after it was replaced');
      }
    });

    it('is a row of its own in the table, with its spec', () => {
      expect(CONNECTION_TABLE.resuming.sessionExpired.to).toEqual(['shuttingDown']);
      expect(CONNECTION_TABLE.operating.sessionExpired.to).toEqual(['resuming', 'shuttingDown']);
      expect(CONNECTION_TABLE.resuming.sessionExpired.spec).toContain('Transports §Session Management');
      for (const type of CONNECTION_EVENT_TYPES) expect(CONNECTION_TABLE.resuming[type].spec.length).toBeGreaterThan(0);
    });
  });

  it('ignores the expiry in the phases that have no session yet', () => {
    for (const phase of ['handshaking', 'discovering'] as const) {
      expect(effectTypes({ kind: 'initializing', phase, config: client }, expired())).toEqual(['ignore']);
    }
  });
});
