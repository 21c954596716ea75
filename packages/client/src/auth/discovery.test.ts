import { describe, expect, it } from 'vitest';
import {
  allowedResourceMetadataHint,
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  discoverResourceMetadata,
  legacyAuthorizationServer,
  resourceMatches,
  resourceMetadataUrls,
} from './discovery.js';
import { OAuthDiscoveryError } from './errors.js';
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

describe('server-supplied metadata URLs', () => {
  const server = new URL('https://api.example/mcp');

  it('takes a resource_metadata hint on the server origin or an allowed one, and ignores an unparseable one', () => {
    expect(allowedResourceMetadataHint(server, 'https://api.example/custom/prm.json', [])).toBe('https://api.example/custom/prm.json');
    expect(allowedResourceMetadataHint(server, 'https://meta.example/prm', ['https://meta.example'])).toBe('https://meta.example/prm');
    expect(allowedResourceMetadataHint(server, 'not a url', [])).toBeUndefined();
    expect(allowedResourceMetadataHint(server, undefined, [])).toBeUndefined();
  });

  it('refuses a hint on another origin (another port, scheme or host) without fetching it', async () => {
    for (const hint of ['https://api.example:8443/prm', 'http://api.example/prm', 'https://10.0.0.5/prm']) {
      expect(() => allowedResourceMetadataHint(server, hint, [])).toThrow(OAuthDiscoveryError);
    }
    const http = table({ 'https://internal.example/prm': { resource: 'https://api.example/mcp' } });
    const refusal = discoverResourceMetadata(server, 'https://internal.example/prm', http);
    await expect(refusal).rejects.toMatchObject({ code: 'AUTH_DISCOVERY_REFUSED', problem: 'origin-not-allowed', document: 'https://internal.example/prm', expected: 'https://api.example' });
    expect(http.asked).toEqual([]);
  });

  it('refuses a PRM whose authorization_servers are not issuer URLs', async () => {
    const prm = 'https://api.example/.well-known/oauth-protected-resource/mcp';
    for (const servers of ['https://as.example', ['https://as.example?tenant=1'], ['https://as.example#x'], [42], ['not a url']]) {
      const http = table({ [prm]: { resource: 'https://api.example/mcp', authorization_servers: servers } });
      await expect(discoverResourceMetadata(server, undefined, http)).rejects.toMatchObject({ problem: 'invalid-document', field: 'authorization_servers', document: prm });
    }
  });
});

describe('authorization server of a server without PRM (2025-03-26)', () => {
  const server = new URL('https://mcp.example/v1/mcp');
  const metadataUrl = 'https://mcp.example/.well-known/oauth-authorization-server';
  const endpoints = { authorization_endpoint: 'https://mcp.example/oauth/authorize', token_endpoint: 'https://mcp.example/oauth/token' };

  it('takes metadata at the origin naming the origin, with or without the trailing slash', async () => {
    for (const issuer of ['https://mcp.example', 'https://mcp.example/']) {
      await expect(legacyAuthorizationServer(server, table({ [metadataUrl]: { issuer, ...endpoints } }))).resolves.toMatchObject({ issuer });
    }
  });

  it('refuses metadata at the origin claiming another issuer, or none', async () => {
    const claimed = table({ [metadataUrl]: { issuer: 'https://as.corp.example', ...endpoints } });
    await expect(legacyAuthorizationServer(server, claimed)).rejects.toMatchObject({
      name: 'OAuthDiscoveryError',
      problem: 'issuer-mismatch',
      document: metadataUrl,
      field: 'issuer',
      expected: 'https://mcp.example',
      claimed: 'https://as.corp.example',
    });
    await expect(legacyAuthorizationServer(server, table({ [metadataUrl]: endpoints }))).rejects.toMatchObject({ problem: 'issuer-mismatch', claimed: undefined });
  });

  it('falls back to the default endpoints at the origin when no metadata is published', async () => {
    await expect(legacyAuthorizationServer(server, table({}))).resolves.toEqual({
      issuer: 'https://mcp.example',
      authorization_endpoint: 'https://mcp.example/authorize',
      token_endpoint: 'https://mcp.example/token',
      registration_endpoint: 'https://mcp.example/register',
    });
  });

  it('types the issuer refusal of OpenID Connect discovery the same way', async () => {
    const http = table({ 'https://as.example/tenant/.well-known/openid-configuration': { issuer: 'https://as.example/other' } });
    await expect(discoverAuthorizationServer('https://as.example/tenant', http)).rejects.toMatchObject({
      problem: 'issuer-mismatch',
      document: 'https://as.example/tenant/.well-known/openid-configuration',
      expected: 'https://as.example/tenant',
      claimed: 'https://as.example/other',
    });
  });
});
