/**
 * The interactive part of the authorization code grant for CLI apps (RFC 8252 §7.3): a
 * one-shot HTTP listener on 127.0.0.1 receives the browser's redirect.
 *
 * Anything on the machine (a web page the user has open, another program) can send requests to
 * the listener, so a callback counts only when its `state` is the authorization request's
 * (RFC 6749 §10.12): any other is answered 400 and the listener keeps waiting, for the right
 * callback — with a code or an `error` — or until `timeoutMs`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError, LocalErrorCode, McpError } from '@statemcp/protocol';

/** Options of {@link loopbackAuthorization}. */
export interface LoopbackAuthorizationOptions {
  /** Show the user the authorization URL: open a browser, print it. */
  readonly open: (authorizationUrl: URL) => void | Promise<void>;
  /** The port to listen on (default 0: any free port). */
  readonly port?: number;
  /** The redirect path (default `/callback`). */
  readonly path?: string;
  /** Give up waiting for the redirect with the right `state` after this many ms (default 300000), with a `REQUEST_TIMEOUT` error. */
  readonly timeoutMs?: number;
  /** The page shown to the user once the redirect arrived. */
  readonly successHtml?: string;
}

/** A listening loopback redirect: its URI for registration, the `authorize` callback, `close`. */
export interface LoopbackAuthorization {
  /** `http://127.0.0.1:<port><path>`: put it in the client's `redirect_uris`. */
  readonly redirectUri: string;
  /**
   * For `OAuthClientProviderOptions.authorize`: opens the URL (which must carry `state`) and
   * resolves with the redirect whose `state` matches it.
   */
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
  let waiting: { state: string; resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
    if (request.method !== 'GET' || url.pathname !== path || waiting === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (url.searchParams.get('state') !== waiting.state) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('This redirect does not answer the authorization request in progress (state mismatch).');
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
      const state = authorizationUrl.searchParams.get('state');
      if (state === null || state === '') throw new InvalidArgumentError('The authorization URL has no state parameter: the redirect could not be told from a forged one');
      const redirect = new Promise<URL>((resolve, reject) => (waiting = { state, resolve, reject }));
      // Handled below once `open` returns; a timeout while it still runs is not an unhandled rejection.
      redirect.catch(() => undefined);
      const timeoutMs = options.timeoutMs ?? 300_000;
      const timer = setTimeout(() => waiting?.reject(new McpError(LocalErrorCode.RequestTimeout, `No authorization redirect with the request's state arrived within ${timeoutMs} ms`)), timeoutMs);
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
