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
  const target = readRequestTarget(parts.url, undefined);
  const { pathname, search } = target.ok ? target : { pathname: '', search: '' };
  const relayed = parts.headers;
  /** The headers as handlers see them, copied on first read only (most relayed calls never ask). */
  let headers: Readonly<Record<string, string>> | undefined;
  const headerRecord = (): Readonly<Record<string, string>> =>
    // Header names are lower-case already (the relaying instance's record); no prototype, so `constructor` is a header or nothing.
    (headers ??= Object.freeze(Object.assign(Object.create(null) as Record<string, string>, relayed)));
  let request: Request | undefined;
  let info: HttpRequestInfo | undefined;
  const inbound: InboundRequest = {
    method: parts.method,
    pathname,
    searchParams: new URLSearchParams(search),
    targetRefusal: target.ok ? undefined : target.reason,
    localAddress: undefined,
    // Own properties only: the relayed record is a parsed JSON object, whose prototype has `constructor`.
    header: (name) => (Object.hasOwn(relayed, name) ? relayed[name] : undefined) ?? (name === 'host' ? new URL(parts.url).host : undefined),
    headerRecord,
    headerNames: () => Object.keys(relayed),
    readBody: (limit) => Promise.resolve(bodyOf(parts.body, limit)),
    loopbackBind: undefined,
    toRequest: () => {
      if (request === undefined) {
        const init: RequestInit = { method: parts.method, headers: headerRecord() };
        const signal = client?.signal;
        if (signal !== undefined) init.signal = signal;
        if (parts.body !== undefined) init.body = parts.body;
        request = readmitted(new Request(parts.url, init));
      }
      return request;
    },
    requestInfo: () => (info ??= Object.freeze({ method: parts.method, url: parts.url, headers: headerRecord(), remoteAddress: undefined })),
    get signal() {
      return client?.signal;
    },
    onClientGone: (listener) => client?.onClientGone(listener),
  };
  return inbound;
}

/** The relayed body under `limit` bytes (its length was checked where it arrived, against that instance's limit). */
function bodyOf(body: string | undefined, limit: number): BodyRead {
  if (body === undefined) return { ok: true, text: '' };
  // UTF-16 units bound the UTF-8 bytes from below and by three from above: count only when it may matter.
  if (body.length * 3 > limit && encoder.encode(body).byteLength > limit) return { ok: false, tooLarge: true };
  return { ok: true, text: body };
}
