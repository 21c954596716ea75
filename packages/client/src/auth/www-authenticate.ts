/**
 * Reading `WWW-Authenticate` challenges (RFC 9110 §11.6.1): the scheme of each challenge and
 * its auth-params, of which OAuth uses `resource_metadata` (RFC 9728 §5.1), `scope`, `error`
 * (RFC 6750 §3) and, for DPoP, `algs` (RFC 9449 §7.1).
 */

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The auth scheme, lower-cased (`bearer`, `dpop`). */
  readonly scheme: string;
  /** Its auth-params; names lower-cased, quoted values unescaped. */
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Parses a `WWW-Authenticate` header value into its challenges. Malformed parts end the
 * parse; what was read before them is kept.
 *
 * @example
 * ```ts
 * parseWwwAuthenticate('Bearer error="insufficient_scope", scope="files:read"');
 * // [{ scheme: 'bearer', params: { error: 'insufficient_scope', scope: 'files:read' } }]
 * ```
 */
export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let rest = header;
  const skip = (pattern: RegExp): void => {
    rest = rest.replace(pattern, '');
  };
  skip(/^[\s,]+/);
  while (rest.length > 0) {
    const scheme = TOKEN.exec(rest)?.[0];
    if (scheme === undefined) break;
    rest = rest.slice(scheme.length);
    const challenge = { scheme: scheme.toLowerCase(), params: {} as Record<string, string> };
    challenges.push(challenge);
    skip(/^\s+/);
    // auth-params: name = value, separated by commas; a bare token68 is skipped.
    for (;;) {
      const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(rest);
      const match = token68 === null ? /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*/.exec(rest) : null;
      if (match === null) {
        if (token68 !== null) rest = rest.slice(token68[0].length);
        break;
      }
      rest = rest.slice(match[0].length);
      const name = (match[1] as string).toLowerCase();
      let value: string;
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (quoted === null) return challenges;
        value = (quoted[1] as string).replace(/\\(.)/g, '$1');
        rest = rest.slice(quoted[0].length);
      } else {
        value = TOKEN.exec(rest)?.[0] ?? '';
        rest = rest.slice(value.length);
      }
      challenge.params[name] = value;
      skip(/^\s*/);
      if (!rest.startsWith(',')) break;
      skip(/^[\s,]+/);
      // The next item is another param when it reads `name=`, else a new challenge.
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=/.test(rest)) break;
    }
    skip(/^[\s,]+/);
  }
  return challenges;
}

/** The first challenge's value of `param`, among challenges of `schemes` (all when omitted). */
export function challengeParam(challenges: readonly AuthChallenge[], param: string, schemes?: readonly string[]): string | undefined {
  for (const challenge of challenges) {
    if (schemes !== undefined && !schemes.includes(challenge.scheme)) continue;
    const value = challenge.params[param];
    if (value !== undefined) return value;
  }
  return undefined;
}
