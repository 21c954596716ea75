/**
 * A request another instance relayed here (`relay-exchange.ts`), as the server's core reads it:
 * its method, URL, headers and body text come from the relayed message itself, so the owner
 * serves it without a web `Request`, its `Headers`, its body stream or its signal (a large
 * share of a small relayed call). A `Request` is built only when an `authenticate` hook asks
 * for one, marked as already admitted by the relaying instance (`readmitted`).
 */
import type { HttpRequestInfo } from '@statemcp/protocol';
import { readmitted } from './auth-gate.js';
import type { BodyRead, InboundRequest } from './inbound.js';
import { readRequestTarget } from './request-target.js';

/** What the core asks of a request's client: whether it went away (`InboundRequest.signal`, `onClientGone`). */
export type ClientPresence = Pick<InboundRequest, 'signal' | 'onClientGone'>;

/**
 * The relaying instance's client, as the owner sees it: gone once the relay is aborted. The
 * `AbortSignal` is made only if something asks for it (most relayed calls end without one).
 */
export class RelayedClient implements ClientPresence {
  #gone = false;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  onClientGone(listener: () => void): void {
    if (this.#gone) listener();
    else (this.#listeners ??= []).push(listener);
  }

  /** The client went away (or its answer can no longer reach it): tells every listener, once. */
  leave(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#controller?.abort();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }
}

/** The parts of an HTTP request a relay carries. */
export interface RelayedParts {
  readonly method: string;
  /** The absolute URL the relaying instance built from the request's target and `Host`. */
  readonly url: string;
  /** Lower-case names, hop-by-hop headers removed. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

const encoder = new TextEncoder();

/**
 * The {@link InboundRequest} of a relayed request. `client` tells when the relaying instance's
 * client went away (its `abort` message), or this instance's own client (a request served here
 * after adopting its session). The bind is unknown, as for a fetch request: the Host
 * guard treats it as loopback (the relaying instance checked its own).
 */
export function relayedInbound(parts: RelayedParts, client: ClientPresence | undefined): InboundRequest {
  return new RelayedInbound(parts, client);
}

/** {@link relayedInbound}'s view: a class, so its methods are built once, not per relayed request. */
class RelayedInbound implements InboundRequest {
  readonly method: string;
  readonly pathname: string;
  readonly targetRefusal: string | undefined;
  readonly localAddress = undefined;
  readonly loopbackBind = undefined;
  readonly #parts: RelayedParts;
  readonly #client: ClientPresence | undefined;
  readonly #search: string;
  #searchParams: URLSearchParams | undefined = undefined;
  #headers: Readonly<Record<string, string>> | undefined = undefined;
  #request: Request | undefined = undefined;
  #info: HttpRequestInfo | undefined = undefined;

  constructor(parts: RelayedParts, client: ClientPresence | undefined) {
    this.#parts = parts;
    this.#client = client;
    const target = readRequestTarget(parts.url, undefined);
    this.method = parts.method;
    this.pathname = target.ok ? target.pathname : '';
    this.#search = target.ok ? target.search : '';
    this.targetRefusal = target.ok ? undefined : target.reason;
  }

  /** Built on first read: only the legacy HTTP+SSE message path reads the query. */
  get searchParams(): URLSearchParams {
    return (this.#searchParams ??= new URLSearchParams(this.#search));
  }

  header(name: string): string | undefined {
    const relayed = this.#parts.headers;
    // Own properties only: the relayed record is a parsed JSON object, whose prototype has `constructor`.
    return (Object.hasOwn(relayed, name) ? relayed[name] : undefined) ?? (name === 'host' ? new URL(this.#parts.url).host : undefined);
  }

  /** Copied on first read only (most relayed calls never ask). */
  headerRecord(): Readonly<Record<string, string>> {
    // Header names are lower-case already (the relaying instance's record); no prototype, so `constructor` is a header or nothing.
    return (this.#headers ??= Object.freeze(Object.assign(Object.create(null) as Record<string, string>, this.#parts.headers)));
  }

  headerNames(): Iterable<string> {
    return Object.keys(this.#parts.headers);
  }

  readBody(limit: number): Promise<BodyRead> {
    return Promise.resolve(bodyOf(this.#parts.body, limit));
  }

  toRequest(): Request {
    if (this.#request === undefined) {
      const parts = this.#parts;
      const init: RequestInit = { method: parts.method, headers: this.headerRecord() };
      const signal = this.#client?.signal;
      if (signal !== undefined) init.signal = signal;
      if (parts.body !== undefined) init.body = parts.body;
      this.#request = readmitted(new Request(parts.url, init));
    }
    return this.#request;
  }

  requestInfo(): HttpRequestInfo {
    return (this.#info ??= Object.freeze({ method: this.method, url: this.#parts.url, headers: this.headerRecord(), remoteAddress: undefined }));
  }

  get signal(): AbortSignal | undefined {
    return this.#client?.signal;
  }

  onClientGone(listener: () => void): void {
    this.#client?.onClientGone(listener);
  }
}

/** The relayed body under `limit` bytes (its length was checked where it arrived, against that instance's limit). */
function bodyOf(body: string | undefined, limit: number): BodyRead {
  if (body === undefined) return { ok: true, text: '' };
  // UTF-16 units bound the UTF-8 bytes from below and by three from above: count only when it may matter.
  if (body.length * 3 > limit && encoder.encode(body).byteLength > limit) return { ok: false, tooLarge: true };
  return { ok: true, text: body };
}
