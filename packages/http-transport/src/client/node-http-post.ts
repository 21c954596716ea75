/**
 * The Streamable HTTP client transport's own POST on `node:http`, used when it runs on its
 * default `nodeHttpFetch` and no option needs the web objects (`http-answer.ts` decides). The
 * request is the one `nodeHttpFetch` sends (same agents, target and headers); what `fetch`, the
 * `Response` and the redirect guard did per POST is done here on node's `ClientRequest` and
 * `IncomingMessage` (see tooling/bench/profiling/README.md for what it saves):
 *
 * - no redirect is followed (SECURITY.md; the guard's mode `'refuse'`): a 3xx with a `Location`
 *   rejects with the `RedirectRefusedError` of `redirectHop` naming it, its body is drained and
 *   nothing is sent to the `Location`;
 * - aborting the POST's {@link ScopedSignal} (its cancellation, or the transport closing) destroys
 *   the request and rejects with the abort's error before the answer, and destroys the answer's
 *   body after it (whatever reads it then fails with that error);
 * - a pooled keep-alive socket the server closed while idle fails before the request reached the
 *   server: retried once, as `nodeHttpFetch` does; any other failure rejects as `fetch` does
 *   (`TypeError('fetch failed')` with the cause);
 * - the agents have no cap on sockets, so a POST never waits behind the session's GET streams.
 */
import type * as Http from 'node:http';
import { isRedirectStatus, redirectHop } from '@statemcp/protocol/internal';
import type { ScopedSignal } from './abort-scope.js';
import type { HttpAnswer, PostExchange } from './http-answer.js';
import { BODY_EXCERPT_BYTES, clipExcerpt } from './http-errors.js';
import { drainIncoming, incomingHeader, readIncomingText, readSseIncoming } from './incoming-body.js';
import type { SseParser } from '../shared/sse-parse.js';

/** Where the POSTs go, as `node:http` takes it (what `nodeHttpFetch` makes of the URL). */
export interface PostTarget {
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly path: string;
  readonly auth: string | undefined;
}

/** Node itself (not another runtime's `node:http`, which may not take a head as a list). */
const flatHeads = typeof process === 'object' && process.versions.bun === undefined && process.versions.deno === undefined;

/** Statuses whose answer has no body (Fetch Standard "null body status"). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** The POSTs to `url` (`target`) through `module` and `agent`. */
export function nodePostExchange(module: typeof Http, agent: Http.Agent, target: PostTarget, url: URL): PostExchange {
  const { protocol, hostname, port, path, auth } = target;
  const host = hostHeader(target, agent);
  const authorization = auth === undefined ? undefined : `Basic ${Buffer.from(auth).toString('base64')}`;
  const post = (headers: Record<string, string>, body: string, stop: ScopedSignal, retried: boolean): Promise<HttpAnswer> =>
    new Promise<HttpAnswer>((resolve, reject) => {
      if (stop.aborted) return stop.onAbort(reject);
      let answered = false;
      // Node's own node:http takes the head as a list; other runtimes' node:http get the record as before.
      const options = flatHeads ? { protocol, hostname, port, path, method: 'POST', headers: headList(headers, body, host, authorization), agent } : { protocol, hostname, port, path, auth, method: 'POST', headers, agent };
      const outgoing = module.request(options, (incoming) => {
        answered = true;
        const status = incoming.statusCode ?? 0;
        const location = isRedirectStatus(status) ? incomingHeader(incoming, 'location') : null;
        if (location !== null) {
          // Its body is never read: drained, so the keep-alive socket goes back to the pool.
          stop.onAbort(undefined);
          incoming.resume();
          reject(redirectRefusal(url, status, location));
          return;
        }
        stop.onAbort((error) => incoming.destroy(error));
        resolve(new NodeAnswer(incoming, status));
      });
      stop.onAbort((error) => {
        outgoing.destroy(error);
        reject(error);
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered && outgoing.reusedSocket && error.code === 'ECONNRESET' && !retried && !stop.aborted) {
          resolve(post(headers, body, stop, true));
          return;
        }
        reject(new TypeError('fetch failed', { cause: error }));
      });
      outgoing.end(body);
    });
  return (headers, body, stop) => post(headers, body, stop, false);
}

/**
 * The head of a POST as one flat list of names and values, what `node:http` writes as given
 * (validating each name and value) where a header record goes through `setHeader` one header at
 * a time (lower-cased and stored in the request's table first). So the list carries what node
 * would add to a record: `Host` and the `Content-Length` of the body, and `Authorization` from
 * the URL's userinfo unless the caller's headers name one. `headers` has lower-case names.
 */
function headList(headers: Record<string, string>, body: string, host: string, authorization: string | undefined): string[] {
  // A caller's `Transfer-Encoding` frames the body itself, as node:http lets it with a record.
  const head = headers['transfer-encoding'] === undefined ? ['content-length', String(Buffer.byteLength(body))] : [];
  if (headers.host === undefined) head.push('host', host);
  if (authorization !== undefined && headers.authorization === undefined) head.push('authorization', authorization);
  for (const name in headers) head.push(name, headers[name] as string);
  return head;
}

/** The `Host` header node:http makes for `target`: an IPv6 address in brackets, the port unless it is the scheme's default. */
function hostHeader(target: PostTarget, agent: Http.Agent): string {
  const { hostname, port } = target;
  const name = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  const defaultPort = (agent as { defaultPort?: number }).defaultPort ?? (target.protocol === 'https:' ? 443 : 80);
  return port !== '' && Number(port) !== defaultPort ? `${name}:${port}` : name;
}

/** The refusal of a redirect of a POST: in mode `'refuse'`, `redirectHop` refuses every `Location`. */
function redirectRefusal(from: URL, status: number, location: string): Error {
  try {
    redirectHop(from, status, location, 'POST', 'refuse', 0);
  } catch (refusal) {
    if (refusal instanceof Error) return refusal;
  }
  return new TypeError(`POST ${from.href} was redirected (HTTP ${status}) and follows no redirect`);
}

/** The answer to one POST, read off node's `IncomingMessage`. */
class NodeAnswer implements HttpAnswer {
  readonly #incoming: Http.IncomingMessage;
  readonly status: number;
  readonly hasBody: boolean;

  constructor(incoming: Http.IncomingMessage, status: number) {
    this.#incoming = incoming;
    this.status = status;
    this.hasBody = !NULL_BODY_STATUSES.has(status);
  }

  get statusText(): string {
    return this.#incoming.statusMessage ?? '';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  header(name: string): string | null {
    return incomingHeader(this.#incoming, name);
  }

  text(maxBytes: number, what: string): Promise<string> {
    return readIncomingText(this.#incoming, maxBytes, what);
  }

  excerpt(): Promise<string> {
    return readIncomingText(this.#incoming, BODY_EXCERPT_BYTES, 'The response body', true).then(clipExcerpt, () => '');
  }

  discard(): Promise<void> {
    drainIncoming(this.#incoming);
    return Promise.resolve();
  }

  readSse(parser: SseParser, stop: ScopedSignal, isComplete: () => boolean): Promise<void> {
    // Stopping destroys the body with the abort's error (as the POST already does once answered): the read rejects with it.
    stop.onAbort((error) => this.#incoming.destroy(error));
    return readSseIncoming(this.#incoming, parser, undefined, isComplete);
  }
}
