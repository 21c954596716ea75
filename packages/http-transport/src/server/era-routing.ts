/**
 * Which era a Streamable HTTP request belongs to on a dual-era endpoint (MCP 2026-07-28
 * basic/versioning §Backward Compatibility): a
 * request of a stateless (modern-era, 2026-07-28+) revision is served like stateless mode
 * even when sessions are on, so one endpoint can serve both eras.
 */
import { MODERN_PROTOCOL_VERSIONS, isModernVersion } from '@statemcp/protocol';
import { eraOf } from '@statemcp/protocol/internal';
import type { InboundRequest } from './inbound.js';
import { metaVersionOf } from './modern-headers.js';
import { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from './server-options.js';

/** The era decisions of one server, from its configured versions. */
export interface EraRouting {
  /** True for a request of a stateless revision that this server was told to support. */
  isModernRequest(inbound: InboundRequest): boolean;
  /**
   * The version a sessionless POST is served at statelessly, or undefined for legacy traffic:
   * a single message whose `_meta` names a protocol version, or whose `MCP-Protocol-Version`
   * header is a modern one (a legacy `initialize` carries neither, so header validation must wait for the era). The
   * exchange starts at the header's version when served, else the newest; the session checks
   * the request's own `_meta` version (-32022) and its required fields (-32602).
   */
  exchangeVersion(inbound: InboundRequest, items: readonly unknown[], isBatch: boolean): string | undefined;
}

/**
 * `configured` is the server's `supportedProtocolVersions` option; `supportedVersions` the
 * versions it accepts in `MCP-Protocol-Version`.
 */
export function createEraRouting(configured: readonly string[] | undefined, supportedVersions: readonly string[]): EraRouting {
  // The stateless revisions this endpoint serves beside its sessions (every one the protocol
  // knows unless `supportedProtocolVersions` says otherwise), newest first.
  const modernVersions = (configured ?? MODERN_PROTOCOL_VERSIONS).filter(isModernVersion).sort().reverse();
  return {
    isModernRequest: (inbound) => {
      const header = inbound.header(PROTOCOL_VERSION_HEADER)?.trim();
      return header !== undefined && ((modernVersions as readonly string[]).includes(header) || (supportedVersions.includes(header) && eraOf(header) === 'modern'));
    },
    exchangeVersion: (inbound, items, isBatch) => {
      const latest = modernVersions[0];
      if (latest === undefined || isBatch || items.length !== 1) return undefined;
      const sessionId = inbound.header(SESSION_ID_HEADER);
      if (sessionId !== undefined && sessionId !== '') return undefined;
      const header = inbound.header(PROTOCOL_VERSION_HEADER)?.trim();
      const headerIsModern = header !== undefined && isModernVersion(header);
      if (!headerIsModern && metaVersionOf(items[0]) === undefined) return undefined;
      return headerIsModern && modernVersions.includes(header) ? header : latest;
    },
  };
}
