/**
 * The context a request handler receives. A class, so that what most handlers never touch
 * costs nothing: the AbortSignal (which Node builds lazily and which costs more than the
 * rest of a request's bookkeeping) is created only when a handler reads `signal`, and the
 * methods live on the prototype instead of being fresh closures per request.
 */
import type { InboundContext } from '../transport/transport.js';
import { isJsonObject, type JsonObject, type RequestId } from '../jsonrpc/messages.js';
import type { PeerInfo } from '../machines/connection-types.js';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY } from '../revisions/blocks/modern.js';
import type { TraceContext } from '../observability/trace-context.js';
import { handlerSignal, type InboundRecord } from './ledger.js';
import type { ProgressHandle, RequestContext, RequestOptions } from './options.js';

/** What a context needs from its session; one instance per session, shared by every context. */
export interface HandlerContextHost {
  /** True while the request is still awaiting its reply. */
  isLive(record: InboundRecord): boolean;
  /** True once the session reached Terminated. */
  isTerminated(): boolean;
  /** What the peer declared in the handshake (legacy era), once known. */
  peer(): PeerInfo | undefined;
  emitProgress(record: InboundRecord, progress: number, total: number | undefined, message: string | undefined): Promise<void>;
  notify(method: string, params: JsonObject | undefined, relatedRequestId: RequestId): Promise<void>;
  request(method: string, params: JsonObject | undefined, options: RequestOptions): Promise<JsonObject>;
  /** Moves a live request to `waitingForInput` (an MRTR round; the reply settles it). */
  awaitInput(record: InboundRecord, inputKeys: readonly string[] | undefined): void;
}

/**
 * Who sent a request and what it declared. In the modern era (2026-07-28+) both come from the
 * request's own `_meta` (`io.modelcontextprotocol/clientCapabilities`, `…/clientInfo`); in the
 * legacy era from the peer's side of the handshake.
 */
export interface Requester {
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly info?: Readonly<{ name: string; version: string } & Record<string, unknown>>;
}

export class HandlerContext implements RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  readonly meta: JsonObject | undefined;
  readonly authInfo: unknown;
  readonly transportContext: InboundContext | undefined;
  readonly protocolVersion: string;
  readonly #perRequestMeta: boolean;
  #requester: Requester | undefined | null = null;
  readonly #record: InboundRecord;
  readonly #host: HandlerContextHost;

  constructor(host: HandlerContextHost, record: InboundRecord, transportContext: InboundContext | undefined, meta: JsonObject | undefined, protocolVersion: string, perRequestMeta: boolean) {
    this.#host = host;
    this.#record = record;
    this.requestId = record.id;
    this.method = record.method;
    this.meta = meta;
    this.authInfo = transportContext?.authInfo;
    this.transportContext = transportContext;
    this.protocolVersion = protocolVersion;
    this.#perRequestMeta = perRequestMeta;
  }

  /**
   * Who sent the request and what it declared: per request from its `_meta` in the modern era
   * (never inferred from earlier requests, MCP 2026-07-28 basic/index §Statelessness), from the
   * handshake in the legacy era.
   * Computed on first read.
   */
  get requester(): Requester | undefined {
    if (this.#requester === null) this.#requester = this.#perRequestMeta ? requesterFromMeta(this.meta) : requesterFromPeer(this.#host.peer());
    return this.#requester;
  }

  get traceContext(): TraceContext | undefined {
    return this.#record.trace;
  }

  get signal(): AbortSignal {
    return handlerSignal(this.#record);
  }

  async sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    if (!this.#host.isLive(this.#record)) return; // replied or cancelled: never after the reply
    await this.#host.emitProgress(this.#record, progress, total, message);
  }

  retainProgress(): ProgressHandle | undefined {
    const record = this.#record;
    const host = this.#host;
    if (record.progressToken === undefined) return undefined;
    let released = false;
    return {
      send: async (progress, total, message) => {
        if (released || host.isTerminated()) return;
        await host.emitProgress(record, progress, total, message);
      },
      release: () => {
        released = true;
      },
    };
  }

  sendNotification(method: string, params?: JsonObject): Promise<void> {
    return this.#host.notify(method, params, this.#record.id);
  }

  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    return this.#host.request(method, params, { ...options, relatedRequestId: this.#record.id });
  }

  markWaitingForInput(inputKeys?: readonly string[]): void {
    if (this.#host.isLive(this.#record)) this.#host.awaitInput(this.#record, inputKeys);
  }
}

function requesterFromMeta(meta: JsonObject | undefined): Requester {
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY];
  const info = meta?.[CLIENT_INFO_META_KEY];
  const declared = isJsonObject(capabilities) ? capabilities : {};
  return isJsonObject(info) ? { capabilities: declared, info: info as NonNullable<Requester['info']> } : { capabilities: declared };
}

function requesterFromPeer(peer: PeerInfo | undefined): Requester | undefined {
  return peer === undefined ? undefined : { capabilities: peer.capabilities, info: peer.info };
}
