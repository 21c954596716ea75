import { describe, expect, it } from 'vitest';
import { CONNECTION_TABLE, initialConnectionState, transition } from './connection.js';
import { outboundRequestEvent } from './connection-steps.js';
import {
  CONNECTION_EVENT_TYPES,
  CONNECTION_STAGES,
  CONNECTION_STATE_KINDS,
  kindOfStage,
  stageOf,
  type ConnectionConfig,
  type ConnectionEvent,
  type ConnectionEventType,
  type ConnectionStage,
  type ConnectionState,
  type ConnectionStateKind,
  type PeerInfo,
} from './connection-types.js';
import { revisionFor } from '../revisions/resolve-version.js';
import { renderConnectionMermaid } from './mermaid.js';

const peer: PeerInfo = { capabilities: {}, info: { name: 'peer', version: '1' } };
const client: ConnectionConfig = { role: 'client', strictInitialized: false };
const server: ConnectionConfig = { role: 'server', strictInitialized: false };
const strictServer: ConnectionConfig = { role: 'server', strictInitialized: true };

function stateOf(kind: ConnectionStage, config: ConnectionConfig): ConnectionState {
  switch (kind) {
    case 'uninitialized':
      return { kind, config };
    case 'handshaking':
    case 'discovering':
      return { kind: 'initializing', phase: kind, config };
    case 'resuming':
      return { kind: 'initializing', phase: kind, config, version: '2025-11-25', peer, initializeSent: true };
    case 'initialized':
    case 'operating':
      return { kind, config, version: '2025-11-25', revision: revisionFor('2025-11-25'), peer };
    case 'shuttingDown':
    case 'terminated':
      return { kind, config, reason: 'closed' };
  }
}

function sampleEvent(type: ConnectionEventType): ConnectionEvent {
  switch (type) {
    case 'outboundRequest':
    case 'inboundRequest':
      return { type, method: 'tools/list' };
    case 'outboundNotification':
    case 'inboundNotification':
      return { type, method: 'notifications/progress' };
    case 'initializeSucceeded':
    case 'sessionAssumed':
    case 'sessionAdopted':
      return { type, version: '2025-11-25', peer };
    case 'discovered':
      return { type, version: '2026-07-28', peer };
    case 'discoveryFailed':
      return { type, fallBack: true, reason: 'initializeFailed', error: new Error('legacy') };
    case 'initializeFailed':
      return { type, reason: 'initializeFailed', error: new Error('no') };
    case 'transportClosed':
      return { type, initiator: 'remote' };
    case 'fatalError':
      return { type, error: new Error('fatal') };
    case 'sessionExpired':
      return { type, replacement: false, answered: true };
    case 'closeRequested':
    case 'terminateRequested':
    case 'drained':
    case 'closeDeadlineExpired':
      return { type };
  }
}

function kindAfter(state: ConnectionState, ...events: ConnectionEvent[]): ConnectionStateKind {
  let current = state;
  for (const event of events) current = transition(current, event).state;
  return current.kind;
}

function effectTypes(state: ConnectionState, event: ConnectionEvent): string[] {
  return transition(state, event).effects.map((effect) => effect.type);
}

describe('CONNECTION_TABLE', () => {
  it('is frozen, rows included', () => {
    expect(Object.isFrozen(CONNECTION_TABLE)).toBe(true);
    expect(Object.isFrozen(CONNECTION_TABLE.operating)).toBe(true);
    expect(Object.isFrozen(CONNECTION_TABLE.operating.closeRequested)).toBe(true);
  });

  describe.each(CONNECTION_STAGES)('stage %s', (stage) => {
    it.each(CONNECTION_EVENT_TYPES)('handles event %s for both roles with a row whose targets include the result', (type) => {
      const row = CONNECTION_TABLE[stage][type];
      expect(row, `${stage} × ${type}`).toBeDefined();
      expect(row.spec.length).toBeGreaterThan(0);
      expect(row.doc.length).toBeGreaterThan(0);
      for (const config of [client, server, strictServer]) {
        const { state, effects } = transition(stateOf(stage, config), sampleEvent(type));
        expect(CONNECTION_STATE_KINDS).toContain(state.kind);
        expect(kindOfStage(stageOf(state))).toBe(state.kind);
        expect(Array.isArray(effects)).toBe(true);
        if (stageOf(state) !== stage) expect(row.to, `${stage} × ${type} → ${stageOf(state)}`).toContain(stageOf(state));
      }
    });
  });

  it('has exactly one row set per stage: the six kinds, Initializing split into its three phases', () => {
    expect(Object.keys(CONNECTION_TABLE).sort()).toEqual([...CONNECTION_STAGES].sort());
    expect(CONNECTION_STAGES.map(kindOfStage).filter((kind) => kind === 'initializing')).toHaveLength(3);
  });
});

describe('transition', () => {
  describe('#discovery (modern era, client)', () => {
    const discovering = (): ConnectionState => transition(initialConnectionState(client), { type: 'outboundRequest', method: 'server/discover' }).state;

    it('spends Initializing in discovery and goes straight to Operating when server/discover answers (MCP 2026-07-28 server/discover)', () => {
      expect(discovering()).toMatchObject({ kind: 'initializing', phase: 'discovering' });
      const done = transition(discovering(), { type: 'discovered', version: '2026-07-28', peer });
      expect(done.state).toMatchObject({ kind: 'operating', version: '2026-07-28', peer });
      expect(done.effects).toEqual([{ type: 'negotiated', version: '2026-07-28' }, { type: 'releaseOutbound' }]);
    });

    it('holds calls that may wait, allows a retried discover, and refuses initialize and the rest while discovering', () => {
      expect(effectTypes(discovering(), { type: 'outboundRequest', method: 'tools/list', waitForOperating: true })).toEqual(['holdOutbound']);
      expect(effectTypes(discovering(), { type: 'outboundRequest', method: 'server/discover' })).toEqual(['accept']);
      expect(effectTypes(discovering(), { type: 'outboundRequest', method: 'initialize' })).toEqual(['refuseOutbound']);
      expect(effectTypes(discovering(), { type: 'outboundRequest', method: 'tools/list' })).toEqual(['refuseOutbound']);
      expect(effectTypes(discovering(), { type: 'outboundNotification', method: 'notifications/cancelled' })).toEqual(['accept']);
    });

    it('goes back to Uninitialized for the initialize handshake when the server is legacy (MCP 2026-07-28 basic/versioning §Backward Compatibility)', () => {
      const back = transition(discovering(), { type: 'discoveryFailed', fallBack: true, reason: 'initializeFailed', error: new Error('-32601') });
      expect(back).toEqual({ state: { kind: 'uninitialized', config: client }, effects: [] });
      expect(kindAfter(back.state, { type: 'outboundRequest', method: 'initialize' })).toBe('initializing');
    });

    it('ends the connection when discovery fails without a fallback (a modern error, a pinned era)', () => {
      const error = new Error('unsupported');
      const ended = transition(discovering(), { type: 'discoveryFailed', fallBack: false, reason: 'versionMismatch', error });
      expect(ended.state).toEqual({ kind: 'shuttingDown', config: client, reason: 'versionMismatch', error });
    });

    it('ignores discovery events during a legacy handshake and in every other state', () => {
      const handshaking = transition(initialConnectionState(client), { type: 'outboundRequest', method: 'initialize' }).state;
      expect(effectTypes(handshaking, { type: 'discovered', version: '2026-07-28', peer })).toEqual(['ignore']);
      for (const kind of ['uninitialized', 'initialized', 'operating', 'shuttingDown', 'terminated'] as const) {
        expect(effectTypes(stateOf(kind, client), { type: 'discovered', version: '2026-07-28', peer })).toEqual(['ignore']);
      }
    });
  });

  describe('#handshake', () => {
    it('walks a client through uninitialized → initializing → initialized → operating', () => {
      const start = initialConnectionState(client);
      const s1 = transition(start, { type: 'outboundRequest', method: 'initialize' });
      expect(s1.state.kind).toBe('initializing');
      const s2 = transition(s1.state, { type: 'initializeSucceeded', version: '2025-06-18', peer });
      expect(s2.state.kind).toBe('initialized');
      expect(s2.effects).toEqual([{ type: 'negotiated', version: '2025-06-18' }, { type: 'sendInitialized' }]);
      const s3 = transition(s2.state, { type: 'outboundNotification', method: 'notifications/initialized' });
      expect(s3.state).toMatchObject({ kind: 'operating', version: '2025-06-18' });
    });

    it('walks a server through the handshake when notifications/initialized arrives', () => {
      const start = initialConnectionState(server);
      expect(
        kindAfter(
          start,
          { type: 'inboundRequest', method: 'initialize' },
          { type: 'initializeSucceeded', version: '2025-11-25', peer },
          { type: 'inboundNotification', method: 'notifications/initialized' },
        ),
      ).toBe('operating');
    });

    it('rejects every request but initialize and ping before the handshake, without a session kill', () => {
      const start = initialConnectionState(server);
      const step = transition(start, { type: 'inboundRequest', method: 'tools/list' });
      expect(step.state.kind).toBe('uninitialized');
      expect(step.effects).toEqual([{ type: 'rejectInbound', code: -32600, message: expect.stringContaining('before initialization') as string }]);
    });

    it('answers ping in every live state', () => {
      for (const kind of ['uninitialized', 'handshaking', 'initialized', 'operating'] as const) {
        for (const config of [client, server]) {
          expect(effectTypes(stateOf(kind, config), { type: 'inboundRequest', method: 'ping' })).toEqual(['accept']);
          expect(effectTypes(stateOf(kind, config), { type: 'outboundRequest', method: 'ping' })).toEqual(['accept']);
        }
      }
    });

    it('lets the server send only ping and log notifications before initialized', () => {
      const waiting = stateOf('initialized', server);
      expect(effectTypes(waiting, { type: 'outboundRequest', method: 'sampling/createMessage' })).toEqual(['refuseOutbound']);
      expect(effectTypes(waiting, { type: 'outboundNotification', method: 'notifications/message' })).toEqual(['accept']);
      expect(effectTypes(waiting, { type: 'outboundNotification', method: 'notifications/tools/list_changed' })).toEqual(['refuseOutbound']);
      expect(effectTypes(stateOf('uninitialized', server), { type: 'outboundNotification', method: 'notifications/message' })).toEqual(['accept']);
    });

    it('keeps the client to ping before the initialize response', () => {
      const waiting = stateOf('handshaking', client);
      expect(effectTypes(waiting, { type: 'outboundRequest', method: 'tools/list' })).toEqual(['refuseOutbound']);
      expect(effectTypes(stateOf('uninitialized', client), { type: 'outboundRequest', method: 'tools/list' })).toEqual(['refuseOutbound']);
    });

    it('never lets a client cancel initialize', () => {
      expect(transition(stateOf('handshaking', client), { type: 'outboundNotification', method: 'notifications/cancelled' }).effects[0]).toMatchObject({
        type: 'refuseOutbound',
        message: 'initialize cannot be cancelled',
      });
    });

    it('accepts a request between InitializeResult and initialized as implying it by default', () => {
      const step = transition(stateOf('initialized', server), { type: 'inboundRequest', method: 'tools/list' });
      expect(step.state.kind).toBe('operating');
      expect(step.effects).toEqual([{ type: 'accept' }]);
    });

    it('holds back what arrives while the server answers initialize, and replays it once answered (arrival order)', () => {
      const answering = stateOf('handshaking', strictServer);
      expect(effectTypes(answering, { type: 'inboundNotification', method: 'notifications/initialized' })).toEqual(['deferInbound']);
      expect(effectTypes(answering, { type: 'inboundRequest', method: 'tools/list' })).toEqual(['deferInbound']);
      expect(effectTypes(answering, { type: 'inboundRequest', method: 'ping' })).toEqual(['accept']);
      expect(effectTypes(answering, { type: 'initializeSucceeded', version: '2025-11-25', peer })).toEqual(['negotiated', 'replayDeferred']);
      expect(effectTypes(answering, { type: 'initializeFailed', reason: 'initializeFailed', error: new Error('x') })).toEqual(['replayDeferred']);
      expect(effectTypes(stateOf('handshaking', client), { type: 'inboundRequest', method: 'roots/list' })).toEqual(['rejectInbound']);
    });

    it('holds a client request that may wait until Operating, and releases the held ones there', () => {
      for (const kind of ['uninitialized', 'handshaking', 'initialized'] as const) {
        expect(effectTypes(stateOf(kind, client), { type: 'outboundRequest', method: 'tools/list', waitForOperating: true })).toEqual(['holdOutbound']);
        expect(effectTypes(stateOf(kind, client), { type: 'outboundRequest', method: 'tools/list' })).toEqual(['refuseOutbound']);
      }
      expect(effectTypes(stateOf('uninitialized', server), { type: 'outboundRequest', method: 'roots/list', waitForOperating: true })).toEqual(['refuseOutbound']);
      const operating = transition(stateOf('initialized', client), { type: 'outboundNotification', method: 'notifications/initialized' });
      expect(operating.state.kind).toBe('operating');
      expect(operating.effects).toEqual([{ type: 'accept' }, { type: 'releaseOutbound' }]);
    });

    it('rejects that request under strictInitialized', () => {
      const step = transition(stateOf('initialized', strictServer), { type: 'inboundRequest', method: 'tools/list' });
      expect(step.state.kind).toBe('initialized');
      expect(step.effects[0]).toMatchObject({ type: 'rejectInbound', code: -32600 });
    });

    it('rejects a second initialize in every later state', () => {
      for (const kind of ['handshaking', 'initialized', 'operating'] as const) {
        expect(transition(stateOf(kind, server), { type: 'inboundRequest', method: 'initialize' }).effects[0]).toMatchObject({ type: 'rejectInbound', code: -32600 });
      }
    });

    it('disconnects a client whose initialize failed', () => {
      const step = transition(stateOf('handshaking', client), { type: 'initializeFailed', reason: 'versionMismatch', error: new Error('v') });
      expect(step.state).toMatchObject({ kind: 'shuttingDown', reason: 'versionMismatch' });
      expect(step.effects.map((e) => e.type)).toContain('closeTransport');
    });

    it('starts a stateless exchange operating at the version its transport carries', () => {
      const step = transition(initialConnectionState(server), { type: 'sessionAssumed', version: '2025-06-18', peer });
      expect(step.state).toMatchObject({ kind: 'operating', version: '2025-06-18' });
      expect(step.effects).toEqual([{ type: 'negotiated', version: '2025-06-18' }]);
      expect(effectTypes(stateOf('operating', server), { type: 'sessionAssumed', version: '2025-06-18', peer })).toEqual(['ignore']);
    });

    it('adopts a session from a dead instance straight into operating at its negotiated version, with the recorded peer', () => {
      const adopted = { type: 'sessionAdopted', version: '2025-06-18', peer } as const;
      const step = transition(initialConnectionState(server), adopted);
      expect(step.state).toMatchObject({ kind: 'operating', version: '2025-06-18', peer });
      expect(step.effects).toEqual([{ type: 'negotiated', version: '2025-06-18' }]);
      expect(effectTypes(initialConnectionState(client), adopted)).toEqual(['ignore']);
      for (const kind of ['handshaking', 'initialized', 'operating', 'shuttingDown', 'terminated'] as const) {
        expect(effectTypes(stateOf(kind, server), adopted)).toEqual(['ignore']);
      }
    });

    it('returns a server to uninitialized after a failed initialize', () => {
      expect(kindAfter(stateOf('handshaking', server), { type: 'initializeFailed', reason: 'initializeFailed', error: new Error('x') })).toBe('uninitialized');
    });
  });

  describe('#shutdown', () => {
    it('closes gracefully from operating: cancel pending, abort handlers, close transport, arm deadline', () => {
      expect(effectTypes(stateOf('operating', client), { type: 'closeRequested' })).toEqual([
        'settleOutbound',
        'abortInbound',
        'closeTransport',
        'armCloseDeadline',
      ]);
      expect(transition(stateOf('operating', client), { type: 'closeRequested' }).effects[0]).toEqual({ type: 'settleOutbound', notify: true });
    });

    it('ends in terminated when the transport reports closed, or when the deadline passes', () => {
      const closing = transition(stateOf('operating', client), { type: 'closeRequested' }).state;
      expect(kindAfter(closing, { type: 'transportClosed', initiator: 'local' })).toBe('terminated');
      const timedOut = transition(closing, { type: 'closeDeadlineExpired' });
      expect(timedOut.state).toMatchObject({ kind: 'terminated', reason: 'closeTimeout' });
      expect(timedOut.effects.map((e) => e.type)).toEqual(['settleOutbound', 'abortInbound', 'terminateTransport', 'finalize']);
    });

    it('is idempotent: close while shutting down or terminated does nothing', () => {
      expect(effectTypes(stateOf('shuttingDown', client), { type: 'closeRequested' })).toEqual(['ignore']);
      expect(effectTypes(stateOf('terminated', client), { type: 'closeRequested' })).toEqual(['ignore']);
    });

    it('settles without cancel notifications and drains when the peer goes away', () => {
      const step = transition(stateOf('operating', server), { type: 'transportClosed', initiator: 'remote' });
      expect(step.state).toMatchObject({ kind: 'shuttingDown', reason: 'peerClosed' });
      expect(step.effects).toEqual([
        { type: 'settleOutbound', notify: false },
        { type: 'abortInbound' },
        { type: 'dispatch', event: { type: 'drained' } },
      ]);
      expect(kindAfter(step.state, { type: 'drained' })).toBe('terminated');
    });

    it('still lets notifications/cancelled out while shutting down, and nothing else', () => {
      const closing = stateOf('shuttingDown', client);
      expect(effectTypes(closing, { type: 'outboundNotification', method: 'notifications/cancelled' })).toEqual(['accept']);
      expect(transition(closing, { type: 'outboundRequest', method: 'tools/list' }).effects[0]).toMatchObject({ type: 'refuseOutbound', error: 'connectionClosed' });
      expect(transition(closing, { type: 'inboundRequest', method: 'tools/list' }).effects[0]).toMatchObject({ type: 'rejectInbound' });
    });
  });
});

describe('renderConnectionMermaid', () => {
  it('draws every state and the handshake edges from the table', () => {
    const diagram = renderConnectionMermaid();
    expect(diagram.startsWith('stateDiagram-v2')).toBe(true);
    for (const label of ['Uninitialized', 'Initializing', 'Handshaking', 'Resuming', 'Discovering', 'Initialized', 'Operating', 'ShuttingDown', 'Terminated']) {
      expect(diagram).toContain(label);
    }
    expect(diagram).toContain('  state Initializing {\n    Handshaking\n    Resuming\n    Discovering\n  }');
    expect(diagram).toContain('Uninitialized --> Handshaking: outboundRequest, inboundRequest');
    expect(diagram).toContain('Uninitialized --> Discovering: outboundRequest');
    expect(diagram).toContain('Operating --> Resuming: sessionExpired');
    expect(diagram).toContain('Resuming --> Initialized: initializeSucceeded');
    expect(diagram).toContain('Discovering --> Operating: discovered');
    expect(diagram).toContain('ShuttingDown --> Terminated');
  });
});

describe('outboundRequestEvent', () => {
  it('reuses the last event for the same method and flag, frozen, and makes a new one otherwise', () => {
    const first = outboundRequestEvent('tools/call', true);
    expect(first).toEqual({ type: 'outboundRequest', method: 'tools/call', waitForOperating: true });
    expect(Object.isFrozen(first)).toBe(true);
    expect(outboundRequestEvent('tools/call', true)).toBe(first);
    const plain = outboundRequestEvent('tools/call', false);
    expect(plain).toEqual({ type: 'outboundRequest', method: 'tools/call' });
    expect(outboundRequestEvent('tools/list', false)).toEqual({ type: 'outboundRequest', method: 'tools/list' });
    expect(outboundRequestEvent('tools/list', false)).not.toBe(plain);
  });
});
