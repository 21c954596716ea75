/**
 * The feature flags that split the two eras (MCP 2026-07-28 changelog): every legacy revision has the
 * handshake and none of the stateless rules; the modern revisions the reverse. Revision
 * modules spread the set of their era into `features` next to their own flags.
 */

/** The era flags of every legacy (handshake) revision. */
export const LEGACY_ERA_FEATURES = {
  handshake: true,
  ping: true,
  serverRequests: true,
  perRequestMeta: false,
  resultType: false,
  multiRoundTrip: false,
  cacheableResults: false,
  listenSubscriptions: false,
  routingHeaders: false,
  extensions: false,
  resourceNotFoundCode: -32002,
} as const;

/** The era flags of every modern (stateless) revision. */
export const MODERN_ERA_FEATURES = {
  handshake: false,
  ping: false,
  serverRequests: false,
  perRequestMeta: true,
  resultType: true,
  multiRoundTrip: true,
  cacheableResults: true,
  listenSubscriptions: true,
  routingHeaders: true,
  extensions: true,
  resourceNotFoundCode: -32602,
} as const;
