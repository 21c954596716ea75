/**
 * Which era a Streamable HTTP request belongs to on a dual-era endpoint: a request of a
 * stateless (2026-07-28+) revision is served like stateless mode even when sessions are on, so
 * one endpoint serves both eras (MCP 2026-07-28, Transports §Backwards Compatibility). The
 * version of such a request is `resolveRequestVersion`'s, the rule the session's connection
 * machine and `server/discover` read too.
 */
import { isJsonObject } from '@statemcp/protocol';
import { declaredVersionOf, resolveRequestVersion, servedStatelessVersions, type VersionResolution } from '@statemcp/protocol/internal';
import type { InboundRequest } from './inbound.js';
import { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from './server-options.js';

/** A stateless exchange's version: `served` with the revision in force, or `unsupported` with the -32022 refusal. */
export type ModernExchange = Exclude<VersionResolution, { kind: 'unnamed' }>;

/** The era decisions of one server, from its `supportedVersions`. */
export interface EraRouting {
  /** True for a request whose `MCP-Protocol-Version` names a stateless revision this server serves. */
  isModernRequest(inbound: InboundRequest): boolean;
  /**
   * The version of a sessionless POST served statelessly, or undefined for legacy traffic: a
   * single message whose `_meta` names a protocol version, or whose `MCP-Protocol-Version`
   * header names a stateless-era one (a legacy `initialize` carries neither).
   */
  exchangeVersion(inbound: InboundRequest, items: readonly unknown[], isBatch: boolean): ModernExchange | undefined;
}

export function createEraRouting(supportedVersions: readonly string[]): EraRouting {
  const served = servedStatelessVersions(supportedVersions);
  return {
    isModernRequest: (inbound) => {
      const header = inbound.header(PROTOCOL_VERSION_HEADER)?.trim();
      return header !== undefined && served.includes(header);
    },
    exchangeVersion: (inbound, items, isBatch) => {
      if (served.length === 0 || isBatch || items.length !== 1) return undefined;
      const sessionId = inbound.header(SESSION_ID_HEADER);
      if (sessionId !== undefined && sessionId !== '') return undefined;
      const resolved = resolveRequestVersion(supportedVersions, inbound.header(PROTOCOL_VERSION_HEADER)?.trim(), declaredVersionOf(isJsonObject(items[0]) ? items[0].params : undefined));
      return resolved.kind === 'unnamed' ? undefined : resolved;
    },
  };
}
