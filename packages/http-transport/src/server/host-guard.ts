/**
 * DNS-rebinding protection (MCP specification 2025-11-25, Basic › Transports › Streamable HTTP,
 * "Security Warning": servers MUST validate the `Origin` header, and SHOULD bind only to
 * localhost when running locally).
 *
 * A web page on `evil.example` can make a browser resolve its own name to the server's address
 * (127.0.0.1, or a LAN address) and then talk to the server "same-origin": its requests carry
 * `Host: evil.example` and a matching `Origin`. Comparing `Origin` with `Host` therefore proves
 * nothing; only a list of the server's own names does. The server refuses any request whose
 * `Host` is not one of its names and any request whose `Origin` is foreign. This guard is on
 * with zero configuration:
 *
 * | the request arrived on    | no options                                         | `allowedHosts` / `allowedOrigins` given |
 * |---------------------------|----------------------------------------------------|-----------------------------------------|
 * | loopback, or unknown (fetch handler) | Host ∈ localhost, 127.0.0.1, [::1] (any port); Origin absent or on one of those hosts | those lists |
 * | another address           | Host is that address itself (an IP literal, any port: a name could be anyone's); Origin absent or on it | those lists |
 *
 * `listen()` and `createWebSocketServer()` know their bind before serving anything: on a
 * non-loopback bind without `allowedHosts` they refuse to start ({@link AllowedHostsRequiredError}).
 */
import { LocalErrorCode, McpError } from '@statemcp/protocol';

/** Options of the Host/Origin guard. */
export interface HostGuardOptions {
  /**
   * Allowed `Host` values: a bare name (`example.com`, `[::1]`) allows any port; `name:port`
   * allows that port only. Default: `localhost`, `127.0.0.1`, `[::1]` (any port) for requests
   * on loopback or unknown addresses; for a request on another address, that address itself.
   * Required by `listen()` and `createWebSocketServer()` on non-loopback binds.
   */
  allowedHosts?: readonly string[];
  /**
   * Allowed `Origin` values, exact (`https://app.example.com`, `http://localhost:5173`).
   * Default: any `http`/`https` origin on an allowed host. Requests without `Origin`
   * (non-browser clients) are always allowed.
   */
  allowedOrigins?: readonly string[];
  /**
   * `'loopback'` (default): validate every request against the lists, or without them against
   * the defaults above; `true`: validate against the lists or the loopback names, whatever the
   * address; `false`: never (not recommended; only behind a proxy that checks `Host` itself).
   */
  enabled?: boolean | 'loopback';
}

/** What the guard needs to know about one request. */
export interface HostGuardInput {
  host: string | undefined;
  origin: string | undefined;
  /** True when the request arrived on a loopback address; `undefined` when unknown. */
  loopbackBind: boolean | undefined;
  /**
   * The address the request arrived on. Without lists, a request on a non-loopback address is
   * accepted only with that address as `Host`; without it such a request is refused.
   */
  localAddress?: string | undefined;
}

/** The Host/Origin guard's verdict: accepted, or refused with the reason answered to the client. */
export type HostGuardResult = { ok: true } | { ok: false; reason: string };

/** The hosts allowed by default on loopback binds. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

interface HostRule {
  hostname: string;
  port: string | undefined;
}

function parseHostRule(entry: string): HostRule {
  const parsed = parseHost(entry);
  if (parsed === undefined) throw new RangeError(`Invalid allowed host: ${JSON.stringify(entry)}`);
  return { hostname: parsed.hostname, port: /:\d+$/.test(entry.trim()) ? parsed.port : undefined };
}

/** Parses a `Host` header value into hostname (lower case, IPv6 in brackets) and port. */
function parseHost(value: string): { hostname: string; port: string } | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || /[/?#@\\\s]/.test(trimmed)) return undefined;
  try {
    const url = new URL(`http://${trimmed}`);
    return { hostname: url.hostname.toLowerCase(), port: url.port };
  } catch {
    return undefined;
  }
}

/** The Host rule of a non-loopback local address: the address itself, any port. */
function addressRule(localAddress: string | undefined): HostRule[] {
  if (localAddress === undefined) return [];
  const plain = localAddress.startsWith('::ffff:') && localAddress.includes('.') ? localAddress.slice(7) : localAddress;
  const parsed = parseHost(plain.includes(':') ? `[${plain}]` : plain);
  return parsed === undefined ? [] : [{ hostname: parsed.hostname, port: undefined }];
}

function hostMatches(rules: readonly HostRule[], hostname: string, port: string): boolean {
  return rules.some((rule) => rule.hostname === hostname && (rule.port === undefined || rule.port === port));
}

function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.origin === 'null') return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback addresses. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain) || plain === 'localhost';
}

/**
 * Builds the Host/Origin check used by every entry point of the HTTP server.
 *
 * @example
 * ```ts
 * const guard = createHostGuard({});
 * guard({ host: 'evil.example:3000', origin: undefined, loopbackBind: true }); // { ok: false, … }
 * guard({ host: '127.0.0.1:3000', origin: undefined, loopbackBind: true }); // { ok: true }
 * ```
 */
export function createHostGuard(options: HostGuardOptions = {}): (input: HostGuardInput) => HostGuardResult {
  const enabled = options.enabled ?? 'loopback';
  const explicitHosts = options.allowedHosts !== undefined;
  const explicitOrigins = options.allowedOrigins !== undefined;
  const hostRules = (options.allowedHosts ?? LOOPBACK_HOSTS).map(parseHostRule);
  const origins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined) throw new RangeError(`Invalid allowed origin: ${JSON.stringify(origin)}`);
    origins.add(normalized);
  }

  const refuseOrigin = (origin: string): HostGuardResult => ({ ok: false, reason: `Origin not allowed: ${origin}` });
  // Clients send the same `Host` on every request: the last one read is kept (a URL parse per request otherwise).
  let lastHost: string | undefined;
  let lastParsed: ReturnType<typeof parseHost>;
  const readHost = (value: string): ReturnType<typeof parseHost> => {
    if (value !== lastHost) {
      lastParsed = parseHost(value);
      lastHost = value;
    }
    return lastParsed;
  };

  return (input) => {
    if (enabled === false) return { ok: true };
    // Without a list, a request that arrived on a non-loopback address may name only that address.
    const byAddress = !explicitHosts && enabled === 'loopback' && input.loopbackBind === false;
    const rules = byAddress ? addressRule(input.localAddress) : hostRules;
    const host = input.host === undefined ? undefined : readHost(input.host);
    if (host === undefined) return { ok: false, reason: 'Missing or invalid Host header' };
    if (!hostMatches(rules, host.hostname, host.port)) {
      const hint = byAddress
        ? ` (this server has no allowedHosts, so on ${input.localAddress ?? 'a non-loopback address'} it answers only to that address; set allowedHosts to the names clients use)`
        : '';
      return { ok: false, reason: `Host not allowed: ${input.host ?? ''}${hint}` };
    }
    if (input.origin === undefined) return { ok: true };
    const origin = normalizeOrigin(input.origin);
    if (origin === undefined) return refuseOrigin(input.origin);
    if (explicitOrigins) return origins.has(origin) ? { ok: true } : refuseOrigin(input.origin);
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuseOrigin(input.origin);
    return rules.some((rule) => rule.hostname === url.hostname) ? { ok: true } : refuseOrigin(input.origin);
  };
}

/** The DNS-rebinding options the Streamable HTTP and WebSocket servers share, under their option names. */
export interface HostGuardSettings {
  /** See {@link HostGuardOptions.allowedHosts}. */
  allowedHosts?: readonly string[] | undefined;
  /** See {@link HostGuardOptions.allowedOrigins}. */
  allowedOrigins?: readonly string[] | undefined;
  /** See {@link HostGuardOptions.enabled}. */
  dnsRebindingProtection?: HostGuardOptions['enabled'] | undefined;
}

/** The Host/Origin guard a server's options ask for (secure defaults when they say nothing). */
export function hostGuardFor(settings: HostGuardSettings): ReturnType<typeof createHostGuard> {
  const options: HostGuardOptions = {};
  if (settings.allowedHosts !== undefined) options.allowedHosts = settings.allowedHosts;
  if (settings.allowedOrigins !== undefined) options.allowedOrigins = settings.allowedOrigins;
  if (settings.dnsRebindingProtection !== undefined) options.enabled = settings.dnsRebindingProtection;
  return createHostGuard(options);
}

/**
 * A server was asked to listen on a non-loopback address (`0.0.0.0`, `::`, a LAN address, a
 * name) without `allowedHosts`. Any web page whose name its author points at that address (DNS
 * rebinding) could call such a server, so it refuses to start. Set `allowedHosts` to the names
 * clients use; `dnsRebindingProtection: false` turns the protection off instead (behind a
 * proxy that checks `Host` itself). Code `INVALID_ARGUMENT`.
 */
export class AllowedHostsRequiredError extends McpError {
  override readonly name: string = 'AllowedHostsRequiredError';
  /** The address the server was asked to bind. */
  readonly bindAddress: string;
  /** The option to set. */
  readonly option = 'allowedHosts';

  constructor(bindAddress: string, call: string, options?: { cause?: unknown }) {
    super(
      LocalErrorCode.InvalidArgument,
      `${call} binds a non-loopback address without allowedHosts: any web page whose name is pointed at this machine (DNS rebinding) ` +
        `could call the server. Set allowedHosts to the names clients use, e.g. allowedHosts: ['mcp.example.com'] ` +
        `(and allowedOrigins for browser clients), or bind 127.0.0.1.`,
      options,
    );
    this.bindAddress = bindAddress;
  }
}

/**
 * Throws {@link AllowedHostsRequiredError} when `bindAddress` is not loopback and the settings
 * leave `Host` unchecked there (no `allowedHosts`, protection at its `'loopback'` default).
 * `call` names the API in the message, e.g. `listen({ host: '0.0.0.0' })`.
 */
export function requireAllowedHostsFor(bindAddress: string, settings: HostGuardSettings, call: string): void {
  if (isLoopbackAddress(bindAddress) || settings.allowedHosts !== undefined) return;
  const enabled = settings.dnsRebindingProtection ?? 'loopback';
  if (enabled !== 'loopback') return;
  throw new AllowedHostsRequiredError(bindAddress, call);
}
