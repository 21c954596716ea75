/**
 * The interactive part of the authorization code grant for CLI apps (RFC 8252 §7.3): a
 * one-shot HTTP listener on 127.0.0.1 receives the browser's redirect.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Options of {@link loopbackAuthorization}. */
export interface LoopbackAuthorizationOptions {
  /** Show the user the authorization URL: open a browser, print it. */
  readonly open: (authorizationUrl: URL) => void | Promise<void>;
  /** The port to listen on (default 0: any free port). */
  readonly port?: number;
  /** The redirect path (default `/callback`). */
  readonly path?: string;
  /** Give up waiting for the redirect after this many ms (default 300000). */
  readonly timeoutMs?: number;
  /** The page shown to the user once the redirect arrived. */
  readonly successHtml?: string;
}

/** A listening loopback redirect: its URI for registration, the `authorize` callback, `close`. */
export interface LoopbackAuthorization {
  /** `http://127.0.0.1:<port><path>`: put it in the client's `redirect_uris`. */
  readonly redirectUri: string;
  /** For `OAuthClientProviderOptions.authorize`: opens the URL and resolves with the redirect. */
  readonly authorize: (authorizationUrl: URL) => Promise<URL>;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 for the authorization redirect.
 *
 * @example
 * ```ts
 * const login = await loopbackAuthorization({ open: (url) => console.log(`Sign in at ${url}`) });
 * const authProvider = new OAuthClientProvider({
 *   clientMetadata: { client_name: 'my-cli', redirect_uris: [login.redirectUri] },
 *   authorize: login.authorize,
 * });
 * ```
 */
export async function loopbackAuthorization(options: LoopbackAuthorizationOptions): Promise<LoopbackAuthorization> {
  const path = options.path ?? '/callback';
  let waiting: { resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
    if (request.method !== 'GET' || url.pathname !== path || waiting === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(options.successHtml ?? '<p>Signed in. You can close this window.</p>');
    const done = waiting;
    waiting = undefined;
    done.resolve(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  return {
    redirectUri,
    authorize: async (authorizationUrl) => {
      if (waiting !== undefined) throw new Error('An authorization is already waiting for its redirect');
      const redirect = new Promise<URL>((resolve, reject) => (waiting = { resolve, reject }));
      const timer = setTimeout(() => waiting?.reject(new Error('No authorization redirect arrived in time')), options.timeoutMs ?? 300_000);
      try {
        await options.open(authorizationUrl);
        return await redirect;
      } finally {
        clearTimeout(timer);
        waiting = undefined;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        waiting?.reject(new Error('The loopback listener closed'));
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
