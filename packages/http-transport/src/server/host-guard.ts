/**
 * DNS-rebinding protection (digest §5.1, §5.2 "Endpoint & security"; lessons row 16).
 *
 * A web page on `evil.example` can make a browser resolve its own name to 127.0.0.1 and
 * then talk to a local MCP server "same-origin". The server defeats that by refusing any
 * request whose `Host` is not one of its own names and any request whose `Origin` is
 * foreign. This guard is on with zero configuration:
 *
 * | bind (listening address)  | no options                                         | `allowedHosts` / `allowedOrigins` given |
 * |---------------------------|----------------------------------------------------|-----------------------------------------|
 * | loopback, or unknown (fetch handler) | Host ∈ localhost, 127.0.0.1, [::1] (any port); Origin absent or on one of those hosts | those lists |
 * | other interface           | Host not checked; Origin absent or equal to Host   | those lists |
 */

/** Options of the Host/Origin guard. */
export interface HostGuardOptions {
  /**
   * Allowed `Host` values: a bare name (`example.com`, `[::1]`) allows any port; `name:port`
   * allows that port only. Giving this list turns Host validation on for every bind.
   * Default: `localhost`, `127.0.0.1`, `[::1]` (any port) on loopback binds.
   */
  allowedHosts?: readonly string[];
  /**
   * Allowed `Origin` values, exact (`https://app.example.com`, `http://localhost:5173`).
   * Default: any `http`/`https` origin on an allowed host. Requests without `Origin`
   * (non-browser clients) are always allowed.
   */
  allowedOrigins?: readonly string[];
  /**
   * `'loopback'` (default): validate on loopback or unknown binds, or when lists are given;
   * `true`: always validate; `false`: never (not recommended).
   */
  enabled?: boolean | 'loopback';
}

/** What the guard needs to know about one request. */
export interface HostGuardInput {
  host: string | undefined;
  origin: string | undefined;
  /** True when the request arrived on a loopback address; `undefined` when unknown. */
  loopbackBind: boolean | undefined;
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

  const anyPortRules = hostRules.map((rule) => ({ hostname: rule.hostname, port: undefined }));
  const refuseOrigin = (origin: string): HostGuardResult => ({ ok: false, reason: `Origin not allowed: ${origin}` });

  return (input) => {
    if (enabled === false) return { ok: true };
    const checkHost = enabled === true || explicitHosts || input.loopbackBind !== false;
    const host = input.host === undefined ? undefined : parseHost(input.host);
    if (checkHost) {
      if (host === undefined) return { ok: false, reason: 'Missing or invalid Host header' };
      if (!hostMatches(hostRules, host.hostname, host.port)) return { ok: false, reason: `Host not allowed: ${input.host ?? ''}` };
    }
    if (input.origin === undefined) return { ok: true };
    const origin = normalizeOrigin(input.origin);
    if (origin === undefined) return refuseOrigin(input.origin);
    if (explicitOrigins) return origins.has(origin) ? { ok: true } : refuseOrigin(input.origin);
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuseOrigin(input.origin);
    if (checkHost) return hostMatches(anyPortRules, url.hostname, url.port) ? { ok: true } : refuseOrigin(input.origin);
    // Public bind without lists: same-origin only.
    const hostValue = host === undefined ? undefined : host.port === '' ? host.hostname : `${host.hostname}:${host.port}`;
    return hostValue !== undefined && url.host === hostValue ? { ok: true } : refuseOrigin(input.origin);
  };
}
