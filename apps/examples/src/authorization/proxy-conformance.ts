/**
 * The official MCP conformance suite's authorization-server scenarios (`conformance
 * authorization`: `authorization-server-metadata-endpoint` and `authorization-code-grant`) against
 * `@statemcp/oauth-proxy` in front of the example's upstream identity provider.
 *
 * The suite prints an authorization URL for a person to open and waits for the redirect on
 * `http://127.0.0.1:<port>/callback`. Here the person is code: it opens the URL, approves the
 * proxy's consent page, is signed in at the upstream, and delivers the redirect to the suite.
 * The suite's client is registered beforehand through the proxy's dynamic registration.
 *
 * Usage: `node apps/examples/bin/proxy-conformance.mjs [--output-dir DIR]` (exit status: the suite's).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { createOAuthProxy } from '@statemcp/oauth-proxy';
import { browserUser, startUpstream } from './upstream-idp.js';

/** The suite's release that has the `authorization` command (the one `tooling/conformance` pins). */
const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
/** The MCP server the tokens are asked for (`--resource`); the suite never calls it. */
const RESOURCE = 'https://mcp.example.test/mcp';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Runs the suite's authorization-server scenarios against the proxy; resolves with its exit status. */
export async function runProxyConformance(outputDir: string | undefined, log: (line: string) => void = console.log): Promise<number> {
  const proxyHttp = createServer();
  await new Promise<void>((resolve) => proxyHttp.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(proxyHttp.address() as AddressInfo).port}`;
  const upstream = await startUpstream(`${issuer}/upstream/callback`);
  const proxy = await createOAuthProxy({
    issuer,
    upstream: { issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
    resources: [{ resource: RESOURCE, scopes: ['mcp'] }],
    onError: (error) => log(`proxy error: ${error instanceof Error ? error.message : String(error)}`),
  });
  proxyHttp.on('request', (req, res) => void proxy.handleNodeRequest(req, res));
  try {
    // The suite's client: a public client with the suite's loopback callback, registered dynamically.
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const registered = await fetch(`${issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [redirectUri], application_type: 'native', token_endpoint_auth_method: 'none' }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id?: string };
    if (registered.status !== 201 || clientId === undefined) throw new Error(`Registration at the proxy failed: HTTP ${registered.status}`);

    const args = ['-y', '-p', 'node@22', '-p', CONFORMANCE_PACKAGE, 'conformance', 'authorization', '--url', issuer, '--client-id', clientId, '--resource', RESOURCE, '--port', String(port)];
    if (outputDir !== undefined) args.push('--output-dir', outputDir);
    const suite = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const user = browserUser(redirectUri, () => log('(the user approves the consent page)'));
    const signIns: Promise<void>[] = [];
    for await (const line of createInterface({ input: suite.stdout })) {
      log(line);
      if (!line.startsWith(`${issuer}/auth?`)) continue;
      // The person the suite asks to open the URL: sign in, then deliver the redirect to its callback.
      signIns.push(
        user(new URL(line))
          .then(async (callback) => {
            const error = callback.searchParams.get('error');
            if (error !== null) log(`the proxy answered ${error}: ${callback.searchParams.get('error_description') ?? ''}`);
            await (await fetch(callback)).text();
          })
          .catch((error: unknown) => log(`the headless sign-in failed: ${error instanceof Error ? error.message : String(error)}`)),
      );
    }
    await Promise.all(signIns);
    return await new Promise<number>((resolve) => {
      if (suite.exitCode !== null) resolve(suite.exitCode);
      else suite.once('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await new Promise<void>((resolve) => {
      proxyHttp.close(() => resolve());
      proxyHttp.closeAllConnections();
    });
    await upstream.close();
  }
}
