import { describe, expect, it } from 'vitest';
import { challengeParam, parseWwwAuthenticate } from './www-authenticate.js';

describe('parseWwwAuthenticate', () => {
  it('reads quoted and token params of one challenge', () => {
    expect(parseWwwAuthenticate('Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x.example/.well-known/oauth-protected-resource/mcp"')).toEqual([
      {
        scheme: 'bearer',
        params: { error: 'insufficient_scope', scope: 'files:read files:write', resource_metadata: 'https://x.example/.well-known/oauth-protected-resource/mcp' },
      },
    ]);
    expect(parseWwwAuthenticate('Bearer realm=mcp')).toEqual([{ scheme: 'bearer', params: { realm: 'mcp' } }]);
  });

  it('splits several challenges and unescapes quoted pairs', () => {
    const challenges = parseWwwAuthenticate('DPoP algs="ES256 PS256", error="use_dpop_nonce", Bearer realm="a \\"b\\""');
    expect(challenges).toEqual([
      { scheme: 'dpop', params: { algs: 'ES256 PS256', error: 'use_dpop_nonce' } },
      { scheme: 'bearer', params: { realm: 'a "b"' } },
    ]);
    expect(challengeParam(challenges, 'realm')).toBe('a "b"');
    expect(challengeParam(challenges, 'error', ['bearer'])).toBeUndefined();
  });

  it('takes a bare scheme, a token68, and stops at malformed input', () => {
    expect(parseWwwAuthenticate('Basic, Bearer')).toEqual([
      { scheme: 'basic', params: {} },
      { scheme: 'bearer', params: {} },
    ]);
    expect(parseWwwAuthenticate('Negotiate abc123==, Bearer scope="x"')).toEqual([
      { scheme: 'negotiate', params: {} },
      { scheme: 'bearer', params: { scope: 'x' } },
    ]);
    expect(parseWwwAuthenticate('Bearer scope="unterminated')).toEqual([{ scheme: 'bearer', params: {} }]);
    expect(parseWwwAuthenticate('')).toEqual([]);
  });
});
