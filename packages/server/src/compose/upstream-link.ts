/**
 * One mount's connection to its upstream, through statemcp's `Client` (any transport, either
 * era): it mirrors the upstream's items on the composed server, forwards requests with their
 * progress and cancellation, answers the upstream's sampling, elicitation and roots requests
 * through the downstream client whose call caused them, re-emits list changes, resource
 * updates and log messages, and reconnects after a loss.
 *
 * ```
 * connecting ──connected, items mirrored──▶ ready ──connection lost──▶ reconnecting
 *     │                                       ▲                            │  (items removed,
 *     └──first attempt failed: mount() rejects └──attempt succeeded────────┘   delay doubles
 *                                                                              per failure)
 * any state ──close()──▶ closed
 * ```
 */
import { Client, type CallOptions, type ClientOptions } from '@statemcp/client';
import { TASKS_EXTENSION_ID, withExtension, type Clock, type Implementation, type TimerHandle, type Transport } from '@statemcp/protocol';
import type { McpServer } from '../mcp-server.js';
import type { RequestExtra } from '../request-extra.js';
import type { LoggingLevel } from '../wire-types.js';
import { CallRouting, type ForwardedRequest } from './call-routing.js';
import { Mirror, type MirroredList } from './mirror.js';
import type { Namespace } from './namespace.js';
import { UpstreamUnavailableError, forwardedError } from './upstream-error.js';

/** Backoff between reconnection attempts: `initialDelayMs`, multiplied by `factor` after each failure, at most `maxDelayMs`. */
export interface ReconnectOptions {
  /** Delay before the first attempt after a loss, ms (default 250). */
  readonly initialDelayMs?: number;
  /** Longest delay, ms (default 30 000). */
  readonly maxDelayMs?: number;
  /** Growth per failed attempt (default 2). */
  readonly factor?: number;
}

/** Options of {@link proxy}. */
export interface ProxyOptions {
  /** How the gateway introduces itself upstream (default `{ name: 'statemcp-gateway', version: '1.0.0' }`). */
  readonly clientInfo?: Implementation;
  /**
   * Options of the gateway's client (era, supported versions, timeouts, …). Its sampling,
   * elicitation and roots handling, its per-request capabilities and its concurrent answering
   * of input requests are the gateway's own: those options are ignored.
   */
  readonly client?: Omit<ClientOptions, 'onSampling' | 'onElicitation' | 'roots' | 'concurrentInputs' | 'requestCapabilities'>;
  /** Reconnection after a lost connection (default: on, with the default backoff); `false`: the mount stays down. */
  readonly reconnect?: ReconnectOptions | false;
  /** Timeout of each connection attempt, ms (default: the client's own). */
  readonly connectTimeoutMs?: number;
  /** Sets the upstream's log level after each connect (`logging/setLevel`, legacy upstreams that declare logging). */
  readonly logLevel?: LoggingLevel;
}

/** An upstream reached through a transport: what {@link proxy} returns, for `Composition.mount`. */
export interface Upstream {
  readonly kind: 'upstream';
  /** Opens a new transport to the upstream (called again for every reconnection). */
  readonly transport: () => Transport | Promise<Transport>;
  readonly options: ProxyOptions;
}

/**
 * An upstream server behind `transport` (a new one per connection: stdio spawns the process
 * again, HTTP opens a new session), for `Composition.mount`.
 *
 * @example
 * ```ts
 * await composition.mount('everything', proxy(() => new StdioClientTransport({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] })));
 * ```
 */
export function proxy(transport: () => Transport | Promise<Transport>, options: ProxyOptions = {}): Upstream {
  return { kind: 'upstream', transport, options };
}

/** Where a mount is: connecting the first time, serving, waiting to reconnect, or closed. */
export type MountState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'ready'; readonly protocolVersion: string; readonly serverInfo: Implementation | undefined }
  | { readonly kind: 'reconnecting'; readonly attempt: number; readonly delayMs: number; readonly error: Error | undefined }
  | { readonly kind: 'closed' };

/** What a link needs from its composition. */
export interface LinkSetting {
  readonly server: McpServer;
  readonly space: Namespace;
  readonly clock: Clock;
  readonly report: (message: string) => void;
  readonly onState: (state: MountState) => void;
  readonly onForward: ((request: ForwardedRequest) => void) | undefined;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'statemcp-gateway', version: '1.0.0' };
const ALL_LISTS: ReadonlySet<MirroredList> = new Set(['tools', 'prompts', 'resources']);

export class UpstreamLink {
  readonly #upstream: Upstream;
  readonly #setting: LinkSetting;
  readonly #client: Client;
  readonly #routing: CallRouting;
  readonly #mirror: Mirror;
  /** Upstream URIs some downstream client subscribed to, each followed by a listen stream (it resumes after a reconnection). */
  readonly #followed = new Set<string>();
  #state: MountState = { kind: 'connecting' };
  #timer: TimerHandle | undefined;
  /** Syncs run one after another, each on the then-current listing. */
  #syncs: Promise<void> = Promise.resolve();

  constructor(upstream: Upstream, setting: LinkSetting) {
    this.#upstream = upstream;
    this.#setting = setting;
    const { options } = upstream;
    this.#routing = new CallRouting(setting.space.prefix, setting.onForward);
    // A round of the upstream reaches the caller as one round (concurrent answers), stating the caller's capabilities.
    // The gateway drives upstream tasks (tasks extension): declared, so listings show the tools that run only as tasks.
    this.#client = new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      ...options.client,
      capabilities: withExtension(options.client?.capabilities ?? {}, TASKS_EXTENSION_ID),
      roots: [],
      concurrentInputs: true,
      requestCapabilities: () => this.#routing.requestCapabilities(),
    });
    this.#mirror = new Mirror(setting.server, setting.space, (extra, send) => this.#forward(extra, send), setting.report);
    this.#answerUpstreamRequests();
    this.#relayNotifications();
  }

  get state(): MountState {
    return this.#state;
  }

  /** The first connection: resolves once the upstream's items are mounted; rejects (and closes) when it fails. */
  async start(): Promise<void> {
    try {
      await this.#connect();
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Removes the mount's items and closes its connection; no reconnection follows. Idempotent. */
  async close(): Promise<void> {
    if (this.#state.kind === 'closed') return;
    this.#enter({ kind: 'closed' });
    if (this.#timer !== undefined) this.#setting.clock.clearTimeout(this.#timer);
    this.#mirror.clear();
    await this.#client.close();
  }

  /**
   * Forwards a downstream `resources/subscribe` of an upstream URI (once per URI): a listen stream
   * on the upstream — `resources/subscribe` in the legacy era, `subscriptions/listen` in
   * 2026-07-28 — whose updates are re-sent to the gateway's subscribers.
   */
  async subscribe(uri: string): Promise<void> {
    if (this.#followed.has(uri) || this.#state.kind !== 'ready' || this.#client.serverCapabilities?.resources?.subscribe !== true) return;
    this.#followed.add(uri);
    const { server, space } = this.#setting;
    const stream = await this.#client.listen({ resourceSubscriptions: [uri] });
    stream.onNotification(({ method, params }) => {
      if (method === 'notifications/resources/updated') void server.notifyResourceUpdated(space.uri(String(params.uri)));
    });
  }

  async #connect(): Promise<void> {
    const { options } = this.#upstream;
    const transport = await this.#upstream.transport();
    await this.#client.connect(transport, options.connectTimeoutMs === undefined ? {} : { timeoutMs: options.connectTimeoutMs });
    const closed = this.#client.closed;
    if (options.logLevel !== undefined && this.#client.era === 'legacy' && this.#client.serverCapabilities?.logging !== undefined) await this.#client.setLoggingLevel(options.logLevel);
    await this.#sync(ALL_LISTS);
    if (this.#state.kind === 'closed') return;
    this.#enter({ kind: 'ready', protocolVersion: this.#client.protocolVersion ?? 'unknown', serverInfo: this.#client.serverInfo });
    void closed.then((info) => this.#lost(info.error));
  }

  /** The connection ended without `close()`: the items go, reconnection starts. */
  #lost(error: Error | undefined): void {
    if (this.#state.kind !== 'ready') return;
    this.#setting.report(`${this.#setting.space.prefix}: upstream connection lost${error === undefined ? '' : `: ${error.message}`}`);
    this.#mirror.clear();
    this.#retry(1, error);
  }

  #retry(attempt: number, error: Error | undefined): void {
    const reconnect = this.#upstream.options.reconnect;
    if (reconnect === false) {
      this.#enter({ kind: 'closed' });
      return;
    }
    const initial = reconnect?.initialDelayMs ?? 250;
    const delayMs = Math.min(reconnect?.maxDelayMs ?? 30_000, initial * (reconnect?.factor ?? 2) ** (attempt - 1));
    this.#enter({ kind: 'reconnecting', attempt, delayMs, error });
    this.#timer = this.#setting.clock.setTimeout(() => {
      this.#timer = undefined;
      this.#connect().catch(async (failure: unknown) => {
        if (this.#state.kind === 'closed') return;
        this.#setting.report(`${this.#setting.space.prefix}: reconnection attempt ${attempt} failed: ${failure instanceof Error ? failure.message : String(failure)}`);
        await this.#client.close().catch(() => undefined);
        this.#retry(attempt + 1, failure instanceof Error ? failure : new Error(String(failure)));
      });
    }, delayMs);
  }

  #enter(state: MountState): void {
    this.#state = state;
    this.#setting.onState(state);
  }

  /** Lists `kinds` again and applies the difference, after any sync already running; resolves with whether anything changed. */
  #sync(kinds: ReadonlySet<MirroredList>): Promise<boolean> {
    const run = this.#syncs.then(() => this.#routing.outside(() => this.#mirror.sync(this.#client, kinds)));
    this.#syncs = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Sends one request upstream for the downstream request of `extra`: its cancellation, progress and trace context go along. */
  async #forward<T>(extra: RequestExtra, send: (client: Client, options: CallOptions) => Promise<T>): Promise<T> {
    const prefix = this.#setting.space.prefix;
    if (this.#state.kind !== 'ready') throw new UpstreamUnavailableError(prefix, `Upstream ${JSON.stringify(prefix)} is unavailable (${this.#state.kind})`);
    const options: CallOptions = {
      signal: extra.signal,
      onProgress: ({ progress, total, message }) => {
        extra.sendProgress(progress, total, message).catch(() => undefined); // the downstream request ended meanwhile
      },
      // The trace parent: the client's own provider when one is set (e.g. the gateway's active span), else the downstream request's.
      ...(extra.traceContext === undefined || this.#upstream.options.client?.traceContext !== undefined ? {} : { traceContext: extra.traceContext }),
    };
    try {
      return await this.#routing.run(extra, () => send(this.#client, options));
    } catch (error) {
      throw forwardedError(error, prefix, extra.signal);
    }
  }

  /** Sampling, elicitation and roots requests of the upstream go to the downstream request they serve. */
  #answerUpstreamRequests(): void {
    const client = this.#client;
    const extraFor = (requestId: string | number): RequestExtra => this.#routing.extraFor(requestId, client.era === 'modern');
    client.use(this.#routing.outbound);
    // A Multi Round-Trip input request keeps the upstream's key: the caller answers under it, and the retry finds it.
    const keyed = (inputKey: string | undefined) => (inputKey === undefined ? undefined : { inputKey });
    client.onSampling((params, context) => extraFor(context.requestId).createMessage(params, keyed(context.inputKey)), { tools: true, context: true });
    client.onElicitation((params, context) => extraFor(context.requestId).elicit(params, keyed(context.inputKey)), { form: true, url: true, applyDefaults: false });
    client.use('roots/list', async (context, next) =>
      context.direction === 'inbound' && context.kind === 'request' ? { ...(await extraFor(context.id).listRoots(keyed(context.inputKey))) } : next(),
    );
  }

  /**
   * List changes and log messages of the upstream, re-emitted downstream (resource updates:
   * `subscribe`). A list change the gateway's copy nets to nothing (an item added and removed at
   * once, or one the gateway cannot mount) is announced all the same: the upstream's list did
   * change (MCP 2025-11-25 server/tools §List Changed Notification), and its clients list again.
   */
  #relayNotifications(): void {
    const { server, space } = this.#setting;
    const resync = (kind: MirroredList) => () => {
      if (this.#state.kind !== 'ready') return; // a reconnection lists everything anyway
      this.#sync(new Set([kind])).then(
        (changed) => {
          if (!changed) server.notifyListChanged(kind); // a change of the registrations announces itself
        },
        (error: unknown) => this.#setting.report(`${space.prefix}: relisting ${kind} failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    };
    this.#client.onToolsListChanged(resync('tools'));
    this.#client.onPromptsListChanged(resync('prompts'));
    this.#client.onResourcesListChanged(resync('resources'));
    // A log message during a call goes with that call (its stream, its level); others to every connection.
    this.#client.onLoggingMessage(({ level, data, logger }) => {
      const named = space.prefix === '' ? logger : logger === undefined ? space.prefix : `${space.prefix}/${logger}`;
      const call = this.#routing.latest();
      if (call === undefined) void server.sendLoggingMessage(named === undefined ? { level, data } : { level, data, logger: named });
      else call.log(level, data, named).catch(() => undefined); // the downstream request ended meanwhile
    });
  }
}
