/**
 * Inbound frames, in arrival order. Each frame is classified by hand (one pass), batches are
 * unpacked where the revision allows them, and bad input gets the spec's error (`"id": null`
 * when the id cannot be read) or is dropped as the spec says. Nothing a peer sends throws out.
 *
 * Order is the point (issue 18 #1): a frame whose handling must finish before the next one is
 * read — `initialize`, whose answer moves the connection machine — returns a promise, and the
 * intake holds every later frame until it settles. `initialize`, `notifications/initialized`
 * and `tools/list` written in one chunk are therefore all answered, in order: the
 * `initialized` notification is applied once the server has reached Initialized, never dropped.
 */
import {
  ErrorCode,
  classifyMessage,
  errorResponse,
  isJsonObject,
  isRequestId,
  type JsonRpcErrorResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResultResponse,
  type RequestId,
} from '../jsonrpc/messages.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext } from '../transport/transport.js';
import type { SessionObserver } from './observer.js';

/** What the intake needs from its session. */
export interface IntakeHost {
  readonly observer: SessionObserver;
  protocolVersion(): string | undefined;
  revision(): Revision;
  reply(message: JsonRpcErrorResponse, relatedRequestId: RequestId | undefined): void;
  /** Handles a request; returns a promise when later frames must wait for it. */
  onRequest(message: JsonRpcRequest, context: InboundContext | undefined): Promise<void> | undefined;
  onNotification(message: JsonRpcNotification, context: InboundContext | undefined): void;
  onResult(message: JsonRpcResultResponse): void;
  onErrorResponse(message: JsonRpcErrorResponse): void;
}

type Frame = { readonly value: unknown; readonly context: InboundContext | undefined } | { readonly malformed: string; readonly reason: string };

export class FrameIntake {
  readonly #host: IntakeHost;
  readonly #waiting: Frame[] = [];
  #held = false;

  constructor(host: IntakeHost) {
    this.#host = host;
  }

  /** A parsed JSON value from the transport. */
  receive(value: unknown, context: InboundContext | undefined): void {
    this.#accept({ value, context });
  }

  /** A frame that was not JSON: answered with -32700 and `"id": null`. */
  malformed(text: string, reason: string): void {
    this.#accept({ malformed: text, reason });
  }

  #accept(frame: Frame): void {
    if (this.#held || this.#waiting.length > 0) {
      this.#waiting.push(frame);
      this.#drain();
      return;
    }
    this.#process(frame);
  }

  #drain(): void {
    while (!this.#held) {
      const next = this.#waiting.shift();
      if (next === undefined) return;
      this.#process(next);
    }
  }

  #process(frame: Frame): void {
    const host = this.#host;
    if ('malformed' in frame) {
      host.observer.messageIn(frame.malformed);
      host.reply(errorResponse(null, { code: ErrorCode.ParseError, message: `Parse error: ${frame.reason}` }), undefined);
      return;
    }
    const hold = this.#handle(frame.value, frame.context);
    if (hold === undefined) return;
    this.#held = true;
    const release = () => {
      this.#held = false;
      this.#drain();
    };
    hold.then(release, (error: unknown) => {
      host.observer.diagnostic('unexpected error while handling an inbound message', error);
      release();
    });
  }

  #handle(value: unknown, context: InboundContext | undefined): Promise<void> | undefined {
    const host = this.#host;
    try {
      host.observer.messageIn(value);
      const classified = classifyMessage(value);
      switch (classified.kind) {
        case 'request':
          return host.onRequest(classified.message, context);
        case 'notification':
          host.onNotification(classified.message, context);
          return undefined;
        case 'result':
          host.onResult(classified.message);
          return undefined;
        case 'error':
          host.onErrorResponse(classified.message);
          return undefined;
        case 'batch':
          this.#batch(classified.items, context);
          return undefined;
        case 'invalid':
          if (classified.reply) host.reply(errorResponse(classified.id, { code: classified.code, message: `Invalid request: ${classified.reason}` }), undefined);
          else host.observer.diagnostic(`dropped an invalid message: ${classified.reason}`, value);
          return undefined;
      }
    } catch (error) {
      // Nothing a peer sends may throw out of the runner.
      host.observer.diagnostic('unexpected error while handling an inbound message', error);
      return undefined;
    }
  }

  #batch(items: unknown[], context: InboundContext | undefined): void {
    const host = this.#host;
    const version = host.protocolVersion();
    if (version === undefined || !host.revision().features.batching || items.length === 0) {
      const why = items.length === 0 ? 'an empty batch' : `JSON-RPC batches are not supported in protocol revision ${version ?? '(before initialization)'}`;
      host.reply(errorResponse(null, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${why}` }), undefined);
      return;
    }
    for (const item of items) {
      if (isJsonObject(item) && item.method === 'initialize') {
        host.reply(errorResponse(isRequestId(item.id) ? item.id : null, { code: ErrorCode.InvalidRequest, message: 'initialize must not be part of a batch' }), undefined);
      } else if (Array.isArray(item)) {
        host.reply(errorResponse(null, { code: ErrorCode.InvalidRequest, message: 'Invalid request: nested batch' }), undefined);
      } else {
        void this.#handle(item, context);
      }
    }
  }
}
