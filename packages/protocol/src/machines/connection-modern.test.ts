import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../jsonrpc/messages.js';
import { initialConnectionState, transition } from './connection.js';
import { PER_REQUEST_PEER } from './connection-modern.js';
import type { ConnectionState } from './connection-types.js';
import { revisionFor } from '../revisions/resolve-version.js';

const MODERN = '2026-07-28';
const dualEra = initialConnectionState({ role: 'server', strictInitialized: false, modernVersions: [MODERN] });
const legacyOnly = initialConnectionState({ role: 'server', strictInitialized: false });
const operatingModern: ConnectionState = { kind: 'operating', config: dualEra.config, version: MODERN, revision: revisionFor(MODERN), peer: PER_REQUEST_PEER };

describe('connection machine, 2026-07-28 server rows', () => {
  describe('Uninitialized', () => {
    it('starts operating at the version a self-describing request names', () => {
      const { state, effects } = transition(dualEra, { type: 'inboundRequest', method: 'server/discover', declaredVersion: MODERN });
      expect(state).toMatchObject({ kind: 'operating', version: MODERN, peer: PER_REQUEST_PEER });
      expect(effects).toEqual([{ type: 'negotiated', version: MODERN }, { type: 'accept' }]);
    });

    it('answers -32022 with supported and requested when the named version is not served, and stays', () => {
      const { state, effects } = transition(dualEra, { type: 'inboundRequest', method: 'server/discover', declaredVersion: 'v999.0.0' });
      expect(state.kind).toBe('uninitialized');
      expect(effects).toEqual([
        { type: 'rejectInbound', code: ErrorCode.UnsupportedProtocolVersion, message: 'Unsupported protocol version: v999.0.0', data: { supported: [MODERN], requested: 'v999.0.0' } },
      ]);
    });

    it('runs the legacy handshake for initialize whatever its _meta says', () => {
      const { state } = transition(dualEra, { type: 'inboundRequest', method: 'initialize', declaredVersion: MODERN });
      expect(state.kind).toBe('initializing');
    });

    it('keeps the legacy rule for a server that serves no modern version', () => {
      const { state, effects } = transition(legacyOnly, { type: 'inboundRequest', method: 'tools/list', declaredVersion: MODERN });
      expect(state.kind).toBe('uninitialized');
      expect(effects[0]).toMatchObject({ type: 'rejectInbound', code: ErrorCode.InvalidRequest });
    });

    it('keeps the legacy rule for a request that does not describe itself', () => {
      const { effects } = transition(dualEra, { type: 'inboundRequest', method: 'tools/list' });
      expect(effects[0]).toMatchObject({ type: 'rejectInbound', code: ErrorCode.InvalidRequest });
    });

    it('never lets a client start operating from an inbound request', () => {
      const client = initialConnectionState({ role: 'client', strictInitialized: false, modernVersions: [MODERN] });
      const { state } = transition(client, { type: 'inboundRequest', method: 'tools/list', declaredVersion: MODERN });
      expect(state.kind).toBe('uninitialized');
    });
  });

  describe('Operating at a modern version', () => {
    it('dispatches a request naming a served version', () => {
      expect(transition(operatingModern, { type: 'inboundRequest', method: 'tools/list', declaredVersion: MODERN }).effects).toEqual([{ type: 'accept' }]);
    });

    it('dispatches a request without a version (params validation answers its missing _meta)', () => {
      expect(transition(operatingModern, { type: 'inboundRequest', method: 'tools/list' }).effects).toEqual([{ type: 'accept' }]);
    });

    it('answers -32022 for each request naming another version (nothing is inferred from earlier requests)', () => {
      const { state, effects } = transition(operatingModern, { type: 'inboundRequest', method: 'tools/list', declaredVersion: '2025-11-25' });
      expect(state).toBe(operatingModern);
      expect(effects[0]).toMatchObject({ type: 'rejectInbound', code: ErrorCode.UnsupportedProtocolVersion, data: { supported: [MODERN], requested: '2025-11-25' } });
    });

    it('answers initialize with -32601: the era has no handshake', () => {
      const { effects } = transition(operatingModern, { type: 'inboundRequest', method: 'initialize', declaredVersion: MODERN });
      expect(effects[0]).toMatchObject({ type: 'rejectInbound', code: ErrorCode.MethodNotFound });
    });

    it('refuses every outbound request: modern servers send none', () => {
      const { effects } = transition(operatingModern, { type: 'outboundRequest', method: 'sampling/createMessage' });
      expect(effects[0]).toMatchObject({ type: 'refuseOutbound', error: 'invalidState' });
    });

    it('leaves a legacy operating connection on the legacy rules', () => {
      const legacy: ConnectionState = { kind: 'operating', config: dualEra.config, version: '2025-11-25', revision: revisionFor('2025-11-25'), peer: PER_REQUEST_PEER };
      expect(transition(legacy, { type: 'outboundRequest', method: 'sampling/createMessage' }).effects).toEqual([{ type: 'accept' }]);
      expect(transition(legacy, { type: 'inboundRequest', method: 'initialize' }).effects[0]).toMatchObject({ code: ErrorCode.InvalidRequest });
    });

    it('arrives there through sessionAssumed too (stateless HTTP)', () => {
      const { state } = transition(dualEra, { type: 'sessionAssumed', version: MODERN, peer: PER_REQUEST_PEER });
      expect(state).toMatchObject({ kind: 'operating', version: MODERN });
    });
  });
});
