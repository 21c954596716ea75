import { describe, expect, it } from 'vitest';
import { authorizationServerMetadataUrls, discoverAuthorizationServer, discoverResourceMetadata, resourceMatches, resourceMetadataUrls } from './discovery.js';
import type { OAuthHttp } from './http.js';

/** A `fetch` answering from a table of URL → JSON body (404 for the rest), recording the URLs asked. */
function table(documents: Record<string, unknown>): OAuthHttp & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    allowHttp: false,
    fetch: async (input) => {
      const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
      asked.push(url);
      const body = documents[url];
      return body === undefined ? new Response('not found', { status: 404 }) : Response.json(body);
    },
  };
}

describe('protected resource metadata', () => {
  it('tries the header hint, then the path-based, then the root well-known URI', () => {
    expect(resourceMetadataUrls(new URL('https://api.example/v1/mcp'), 'https://api.example/prm').map(String)).toEqual([
      'https://api.example/prm',
      'https://api.example/.well-known/oauth-protected-resource/v1/mcp',
      'https://api.example/.well-known/oauth-protected-resource',
    ]);
    expect(resourceMetadataUrls(new URL('https://api.example/'), undefined).map(String)).toEqual(['https://api.example/.well-known/oauth-protected-resource']);
  });

  it('accepts the server itself or a parent path on the same origin, nothing else', () => {
    const server = new URL('https://api.example/v1/mcp');
    expect(resourceMatches('https://api.example/v1/mcp', server)).toBe(true);
    expect(resourceMatches('https://api.example', server)).toBe(true);
    expect(resourceMatches('https://api.example/v1/', server)).toBe(true);
    expect(resourceMatches('https://api.example/v1/mc', server)).toBe(false);
    expect(resourceMatches('https://evil.example/v1/mcp', server)).toBe(false);
    expect(resourceMatches('http://api.example/v1/mcp', server)).toBe(false);
    expect(resourceMatches('not a url', server)).toBe(false);
  });

  it('falls back to the root document and refuses one naming another resource', async () => {
    const http = table({ 'https://api.example/.well-known/oauth-protected-resource': { resource: 'https://api.example', authorization_servers: ['https://as.example'] } });
    await expect(discoverResourceMetadata(new URL('https://api.example/mcp'), undefined, http)).resolves.toMatchObject({ resource: 'https://api.example' });
    expect(http.asked).toEqual(['https://api.example/.well-known/oauth-protected-resource/mcp', 'https://api.example/.well-known/oauth-protected-resource']);

    const evil = table({ 'https://api.example/.well-known/oauth-protected-resource/mcp': { resource: 'https://evil.example/mcp' } });
    await expect(discoverResourceMetadata(new URL('https://api.example/mcp'), undefined, evil)).rejects.toThrow(/names resource https:\/\/evil\.example\/mcp/);
  });

  it('answers undefined when the server publishes none (2025-03-26)', async () => {
    await expect(discoverResourceMetadata(new URL('https://api.example/mcp'), undefined, table({}))).resolves.toBeUndefined();
  });

  it('refuses plain http beyond loopback', async () => {
    await expect(discoverResourceMetadata(new URL('http://api.example/mcp'), undefined, table({}))).rejects.toThrow(/plain HTTP/);
    await expect(discoverResourceMetadata(new URL('http://127.0.0.1:3000/mcp'), undefined, table({}))).resolves.toBeUndefined();
  });
});

describe('authorization server metadata', () => {
  it('inserts the well-known segment before the path, OAuth first, then both OpenID forms', () => {
    expect(authorizationServerMetadataUrls(new URL('https://as.example/tenant1')).map(String)).toEqual([
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls(new URL('https://as.example')).map(String)).toEqual([
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as.example/.well-known/openid-configuration',
    ]);
  });

  it('checks the issuer by simple string comparison', async () => {
    const metadata = { issuer: 'https://as.example', authorization_endpoint: 'https://as.example/authorize', token_endpoint: 'https://as.example/token' };
    const http = table({ 'https://as.example/.well-known/openid-configuration': metadata });
    await expect(discoverAuthorizationServer('https://as.example', http)).resolves.toEqual(metadata);
    // The same issuer with a trailing slash is another string: refused.
    await expect(discoverAuthorizationServer('https://as.example/', http)).rejects.toThrow(/expected "https:\/\/as\.example\/"/);
    const mismatch = table({ 'https://as.example/.well-known/oauth-authorization-server': { ...metadata, issuer: 'https://other.example' } });
    await expect(discoverAuthorizationServer('https://as.example', mismatch)).rejects.toThrow(/names issuer "https:\/\/other\.example"/);
  });
});
