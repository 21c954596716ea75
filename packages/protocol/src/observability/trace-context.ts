/**
 * W3C Trace Context (`traceparent`, `tracestate`) and W3C Baggage (`baggage`) as MCP carries
 * them: un-prefixed keys of a request's `params._meta`, reserved by the specification
 * (2026-07-28, and free `_meta` keys in the earlier revisions), each in its W3C format when
 * present. This module validates the three values and picks the ones a request carries; the
 * session runner applies it in one place for every outbound request (`outbound.ts`) and reads
 * it once for every inbound one, so handlers and `inspect` see the same validated values.
 *
 * An invalid `traceparent` is dropped, and its `tracestate` with it (the state only means
 * something beside its parent); an invalid `tracestate` or `baggage` is dropped alone.
 * Nothing invalid is forwarded.
 */
import type { JsonObject } from '../jsonrpc/messages.js';

/** The trace context of one request: W3C `traceparent` / `tracestate` and W3C `baggage`. */
export interface TraceContext {
  /** `version-traceid-parentid-flags`, e.g. `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`. */
  readonly traceparent?: string;
  /** Vendor entries, e.g. `congo=t61rcWkgMzE,rojo=00f067aa0ba902b7`; only kept beside a valid `traceparent`. */
  readonly tracestate?: string;
  /** Application key-value pairs, e.g. `userId=alice,isProduction=false`. */
  readonly baggage?: string;
}

/**
 * Supplies the trace context of an outbound request when the call did not give one: the hook
 * through which an OpenTelemetry user injects the active span (see the package README).
 * Returning undefined sends none (or the context of the request being handled, for a request
 * made from a handler).
 */
export type TraceContextProvider = (request: { readonly method: string }) => TraceContext | undefined;

/** The `_meta` keys of a trace context. */
export const TRACE_CONTEXT_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;
const ALL_ZERO = /^0+$/;
const TRACESTATE_KEY = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
const TRACESTATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const MAX_TRACESTATE_MEMBERS = 32;
const BAGGAGE_KEY = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAGGAGE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
const MAX_BAGGAGE_MEMBERS = 64;
const MAX_BAGGAGE_LENGTH = 8192;
/** Optional whitespace around list separators (RFC 9110 OWS). */
const OWS = /^[ \t]+|[ \t]+$/g;

/**
 * True for a W3C `traceparent`: lower-case hex fields, version not `ff`, trace id and parent
 * id not all zeros; version `00` has exactly four fields, a later version may add more.
 */
export function isValidTraceparent(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = TRACEPARENT.exec(value);
  if (match === null) return false;
  const [, version, traceId = '', parentId = '', rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return false;
  return !ALL_ZERO.test(traceId) && !ALL_ZERO.test(parentId);
}

/** True for a W3C `tracestate`: at most 32 `key=value` members with unique keys; empty members allowed. */
export function isValidTracestate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const keys = new Set<string>();
  for (const raw of value.split(',')) {
    const member = raw.replace(OWS, '');
    if (member === '') continue;
    const equals = member.indexOf('=');
    if (equals <= 0) return false;
    const key = member.slice(0, equals);
    if (!TRACESTATE_KEY.test(key) || !TRACESTATE_VALUE.test(member.slice(equals + 1)) || keys.has(key)) return false;
    keys.add(key);
  }
  return keys.size <= MAX_TRACESTATE_MEMBERS;
}

/**
 * True for a W3C `baggage`: at most 64 members and 8192 characters, each `key=value` with
 * optional `;property` parts; keys are HTTP tokens, values baggage octets (percent-encoded).
 */
export function isValidBaggage(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_BAGGAGE_LENGTH) return false;
  const members = value.split(',');
  if (members.length > MAX_BAGGAGE_MEMBERS) return false;
  return members.every((member) => {
    const [pair = '', ...properties] = member.split(';');
    return isBaggagePair(pair, true) && properties.every((property) => isBaggagePair(property, false));
  });
}

function isBaggagePair(text: string, valueRequired: boolean): boolean {
  const equals = text.indexOf('=');
  if (equals < 0) return !valueRequired && BAGGAGE_KEY.test(text.replace(OWS, ''));
  return BAGGAGE_KEY.test(text.slice(0, equals).replace(OWS, '')) && BAGGAGE_VALUE.test(text.slice(equals + 1).replace(OWS, ''));
}

/** True when `source` has any of the trace keys set (valid or not). */
export function hasTraceKeys(source: { readonly [key: string]: unknown }): boolean {
  return source.traceparent !== undefined || source.tracestate !== undefined || source.baggage !== undefined;
}

/**
 * The valid part of the trace context in `source` (a request's `_meta`, or a
 * {@link TraceContext}); undefined when nothing valid is left.
 *
 * @example
 * ```ts
 * readTraceContext({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'congo=t61rcWkgMzE' });
 * // → both kept; with traceparent 'not-a-trace' → undefined (its tracestate goes too)
 * ```
 */
export function readTraceContext(source: unknown): TraceContext | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const { traceparent, tracestate, baggage } = source as { readonly [key: string]: unknown };
  const parent = isValidTraceparent(traceparent) ? traceparent : undefined;
  const state = parent !== undefined && isValidTracestate(tracestate) ? tracestate : undefined;
  const bag = isValidBaggage(baggage) ? baggage : undefined;
  if (parent === undefined && bag === undefined) return undefined;
  return {
    ...(parent !== undefined ? { traceparent: parent } : {}),
    ...(state !== undefined ? { tracestate: state } : {}),
    ...(bag !== undefined ? { baggage: bag } : {}),
  };
}

/**
 * The trace context an outbound request carries, from the first source that has one: the
 * call's own `traceContext` option, trace keys already in its `_meta`, the session's
 * provider, then the request it is made on behalf of. The source chosen is validated; an
 * invalid one is not replaced by a later source.
 */
export function outboundTraceContext(
  explicit: TraceContext | undefined,
  ownMeta: { readonly [key: string]: unknown } | undefined,
  provided: () => TraceContext | undefined,
  inherited: TraceContext | undefined,
): TraceContext | undefined {
  if (explicit !== undefined) return readTraceContext(explicit);
  if (ownMeta !== undefined && hasTraceKeys(ownMeta)) return readTraceContext(ownMeta);
  const fromProvider = provided();
  if (fromProvider !== undefined) return readTraceContext(fromProvider);
  return inherited;
}

/** `meta` without the trace keys (the validated ones are set again by the caller). */
export function withoutTraceKeys(meta: JsonObject | undefined): JsonObject {
  if (meta === undefined) return {};
  const rest: JsonObject = { ...meta };
  for (const key of TRACE_CONTEXT_KEYS) delete rest[key];
  return rest;
}
