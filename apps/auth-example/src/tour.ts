/**
 * The OAuth walk-through: a real authorization server and a protected MCP server on
 * 127.0.0.1, then each step a client goes through, printed as it happens — the 401 challenge,
 * Protected Resource Metadata discovery, a client-credentials token bound to the resource,
 * calls with `extra.auth`, a 403 step-up for a tool scope, and a token for another resource
 * refused.
 */
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { startAuthorizationServer } from './authorization-server.js';
import { reservePort, serveProtected } from './protected-server.js';

const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth-example', version: '1.0.0' } } };

function shortToken(token: string): string {
  return `${token.slice(0, 12)}…(${token.length} chars)`;
}

async function callTool(url: string, token: string, name: string): Promise<string> {
  const client = new Client({ name: 'auth-example-client', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(url, { headers: { authorization: `Bearer ${token}` } }));
  try {
    const result = await client.callTool({ name, arguments: {} });
    return (result.content as { text?: string }[])[0]?.text ?? '';
  } catch (error) {
    return `refused: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.close();
  }
}

async function postInitialize(url: string, authorization?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { accept: ACCEPT, 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify(INITIALIZE),
  });
}

/** Runs the walk-through, printing each step; true when every step behaved as expected. */
export async function runAuthTour(print: (line: string) => void): Promise<boolean> {
  const main = await reservePort();
  const other = await reservePort();
  const as = await startAuthorizationServer({ [main.url]: 'mcp admin', [other.url]: 'mcp' });
  const server = serveProtected(main, as.issuer);
  const otherServer = serveProtected(other, as.issuer);
  let ok = true;
  const expect = (condition: boolean, line: string): void => {
    ok &&= condition;
    print(`${condition ? '✓' : '✗'} ${line}`);
  };
  try {
    print(`authorization server  ${as.issuer}`);
    print(`protected MCP server  ${server.url}`);

    const challenge = await postInitialize(server.url);
    const header = challenge.headers.get('www-authenticate') ?? '';
    expect(challenge.status === 401, `no token → ${challenge.status}, WWW-Authenticate: ${header}`);

    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1] ?? '';
    const metadata = (await (await fetch(metadataUrl)).json()) as { resource?: string; authorization_servers?: string[]; scopes_supported?: string[] };
    expect(metadata.resource === server.url, `metadata ${metadataUrl} → resource ${metadata.resource ?? '?'}, authorization_servers ${JSON.stringify(metadata.authorization_servers)}`);

    const basic = await as.requestToken(server.url, 'mcp');
    if (!('token' in basic)) throw new Error(`token request failed: ${basic.error}`);
    expect(true, `client_credentials (resource=${server.url}, scope=mcp) → ${shortToken(basic.token)}`);

    const whoami = await callTool(server.url, basic.token, 'whoami');
    expect(whoami === `${as.clientId} with scopes [mcp]`, `tools/call whoami → "${whoami}"`);

    const scoped = await fetch(server.url, {
      method: 'POST',
      headers: { accept: ACCEPT, 'content-type': 'application/json', authorization: `Bearer ${basic.token}`, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'reset_counter', arguments: {} } }),
    });
    expect(scoped.status === 403, `tools/call reset_counter with scope mcp → ${scoped.status}, WWW-Authenticate: ${scoped.headers.get('www-authenticate') ?? ''}`);

    const admin = await as.requestToken(server.url, 'mcp admin');
    if (!('token' in admin)) throw new Error(`token request failed: ${admin.error}`);
    const reset = await callTool(server.url, admin.token, 'reset_counter');
    expect(reset.startsWith('counter reset'), `step-up: token with scope "mcp admin" → tools/call reset_counter → "${reset}"`);

    const elsewhere = await postInitialize(otherServer.url, `Bearer ${basic.token}`);
    expect(
      elsewhere.status === 401,
      `the same token at another resource (${otherServer.url}) → ${elsewhere.status}, ${/error="[^"]+"/.exec(elsewhere.headers.get('www-authenticate') ?? '')?.[0] ?? ''}`,
    );
  } finally {
    await Promise.all([server.close(), otherServer.close(), as.close()]);
  }
  return ok;
}
