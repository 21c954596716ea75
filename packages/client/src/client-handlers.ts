/**
 * What a `Client` does with what the server sends: the handlers of its requests
 * (sampling, elicitation, roots), the listeners of its notifications, and listen streams.
 */
import { InvalidStateError } from '@statemcp/protocol';
import { getRevision, hasCapability } from '@statemcp/protocol/internal';
import type { ChangedList } from './list-changed-stream.js';
import type { ListenHandle, ListenOptions, SubscriptionFilter } from './listen.js';
import { openListen } from './listen-open.js';
import type { ElicitationHandler, ElicitationSettings, SamplingHandler, SamplingSettings } from './options.js';
import { checkRoots, sameRoots } from './roots.js';
import type { LoggingMessageNotificationParams, Root } from './types.js';
import { ClientConnection } from './client-connection.js';

/** The handlers and listeners of a `Client` (see the module comment); the client extends it. */
export abstract class ClientHandlers extends ClientConnection {
  // ------------------------------------------------------------------ handlers for server requests

  /**
   * Handles `sampling/createMessage` and declares the `sampling` capability (with
   * `sampling.tools` / `sampling.context` when asked). Register before `connect()`; after it,
   * a handler can only replace one whose capability was already declared.
   *
   * @example
   * ```ts
   * client.onSampling(async (params) => ({ role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'my-model' }));
   * ```
   */
  onSampling(handler: SamplingHandler, settings: SamplingSettings = {}): void {
    this.#assertDeclarable('sampling', 'onSampling');
    this.serverRequests.sampling = { handler, settings };
  }

  /**
   * Handles `elicitation/create` and declares the `elicitation` capability: form mode by
   * default, URL mode with `{ url: true }`. A request in an undeclared mode is answered
   * -32602 without calling the handler. After an `accept` in form mode, every field the
   * handler left out gets the requested schema's `default`. Register before `connect()`.
   *
   * @example
   * ```ts
   * client.onElicitation(async (params) => ({ action: 'accept', content: { name: 'Ada' } }), { form: true, url: true });
   * ```
   */
  onElicitation(handler: ElicitationHandler, settings: ElicitationSettings = {}): void {
    this.#assertDeclarable('elicitation', 'onElicitation');
    this.serverRequests.elicitation = { handler, settings };
  }

  /**
   * Sets the roots answered to `roots/list` and declares `roots.listChanged`. Once connected,
   * a change sends `notifications/roots/list_changed`. Roots must be `file://` URIs. Call it
   * once before `connect()` for the capability to be declared.
   *
   * @example
   * ```ts
   * await client.setRoots([{ uri: 'file:///home/me/project', name: 'project' }]);
   * ```
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    const next = checkRoots(roots);
    this.#assertDeclarable('roots', 'setRoots');
    const previous = this.serverRequests.roots;
    this.serverRequests.roots = next;
    if (sameRoots(previous, next)) return;
    const version = this.session.protocolVersion;
    const announced = version !== undefined && getRevision(version)?.notifications['notifications/roots/list_changed'] !== undefined;
    if (this.session.state.kind === 'operating' && announced && hasCapability(this.declared, ['roots', 'listChanged'])) {
      await this.session.notify('notifications/roots/list_changed');
    }
  }

  /** The roots currently answered to `roots/list`. */
  get roots(): readonly Root[] | undefined {
    return this.serverRequests.roots;
  }

  #assertDeclarable(capability: 'sampling' | 'elicitation' | 'roots', api: string): void {
    if (this.engaged() && !hasCapability(this.declared, [capability])) {
      throw new InvalidStateError(
        `${api}() was called after connect() without the ${capability} capability declared; register it before connecting (or declare it in options.capabilities)`,
        this.session.state.kind,
      );
    }
  }

  // ------------------------------------------------------------------ notification listeners

  /**
   * Calls `listener` on `notifications/tools/list_changed`; returns an unsubscribe function. In
   * the 2026-07-28 era the client opens a listen stream for it (see `ClientOptions.autoListen`).
   */
  onToolsListChanged(listener: () => void): () => void {
    return this.#onListChanged('tools', listener);
  }

  /** Calls `listener` on `notifications/resources/list_changed`; returns an unsubscribe function. Modern era: see `onToolsListChanged`. */
  onResourcesListChanged(listener: () => void): () => void {
    return this.#onListChanged('resources', listener);
  }

  /** Calls `listener` on `notifications/prompts/list_changed`; returns an unsubscribe function. Modern era: see `onToolsListChanged`. */
  onPromptsListChanged(listener: () => void): () => void {
    return this.#onListChanged('prompts', listener);
  }

  #onListChanged(list: ChangedList, listener: () => void): () => void {
    const remove = this.listeners.add(`notifications/${list}/list_changed`, () => listener());
    const release = this.listChanged.want(list);
    void this.listChanged.update(); // connected in the modern era: the stream widens to this list
    return () => {
      remove();
      release();
    };
  }

  /** Calls `listener` with the URI of a subscribed resource that changed; returns an unsubscribe function. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.listeners.add('notifications/resources/updated', (params) => listener(String(params.uri)));
  }

  /** Calls `listener` with each `notifications/message` log entry; returns an unsubscribe function. */
  onLoggingMessage(listener: (message: LoggingMessageNotificationParams) => void): () => void {
    return this.listeners.add('notifications/message', (params) => listener(params as LoggingMessageNotificationParams));
  }

  /** Calls `listener` when the server reports a URL-mode elicitation complete (2025-11-25); returns an unsubscribe function. */
  onElicitationComplete(listener: (elicitationId: string) => void): () => void {
    return this.listeners.add('notifications/elicitation/complete', (params) => listener(String(params.elicitationId)));
  }

  /**
   * Opens a stream of change notifications, in either era, and resolves once the server has
   * acknowledged it (`stream.acknowledged` is what it honours). 2026-07-28: a
   * `subscriptions/listen` request that stays open; legacy: `resources/subscribe` for the URIs
   * and the connection's own list changes. Its notifications also reach the client-wide
   * listeners and the `listChanged` auto-refresh. `stream.close()` ends it.
   *
   * @example
   * ```ts
   * const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///notes.md'] });
   * for await (const { method, params } of stream) console.log(method, params.uri);
   * ```
   */
  async listen(filter: SubscriptionFilter, options: ListenOptions = {}): Promise<ListenHandle> {
    await this.handshake;
    if (this.session.state.kind !== 'operating') throw new InvalidStateError('listen() needs a live connection: call connect() first', this.session.state.kind);
    return openListen(this.listenHost(), filter, options);
  }
}
