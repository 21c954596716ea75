/**
 * Composition: one `McpServer` in front of several others. `mount(prefix, source)` serves
 * the tools, prompts, resources and resource templates of a local `McpServer` or of a remote
 * upstream (`proxy(transport)`, any transport, either era) under a prefix (see
 * `namespace.ts`), next to the server's own registrations; lists are the server's own,
 * merged and paginated. Requests are forwarded with their progress and cancellation, and
 * what the upstream asks back (sampling, elicitation, roots) reaches the downstream client
 * whose request caused it (see `call-routing.ts`); a call the upstream runs as a task becomes a
 * task of the composed server (see `upstream-task.ts`). An upstream that goes away takes only its
 * own items with it: in-flight requests fail with `UpstreamUnavailableError`, the items leave
 * the lists (list_changed), and return when the link reconnects (see `upstream-link.ts`).
 *
 * @example
 * ```ts
 * const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
 * const composition = compose(gateway);
 * await composition.mount('weather', weatherServer); // a local McpServer
 * await composition.mount('everything', proxy(() => new StdioClientTransport({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] })));
 * // gateway now lists weather_forecast, everything_echo, everything+demo://resource/static/document/… 
 * ```
 */
import { InMemoryTransport, systemClock, type Clock } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import type { ForwardedRequest } from './call-routing.js';
import { Namespace, type NameSeparator } from './namespace.js';
import { UpstreamLink, proxy, type MountState, type ProxyOptions, type Upstream } from './upstream-link.js';

/** Options of {@link compose}. */
export interface ComposeOptions {
  /** What joins a mount's prefix and an upstream tool or prompt name (default `_`). */
  readonly separator?: NameSeparator;
  /** Timer source of the reconnection backoff (default: the system clock). */
  readonly clock?: Clock;
  /** Receives what the composition cannot do silently: an item it cannot mount, a lost or failed connection. */
  readonly onDiagnostic?: (message: string) => void;
  /** Called on every change of a mount's state. */
  readonly onMountState?: (prefix: string, state: MountState) => void;
  /**
   * Called when a downstream request goes upstream, with both ids: the link between the
   * gateway's `inspect` events of the two sides (the downstream connection's and the upstream
   * client's, `ProxyOptions.client.inspect`).
   */
  readonly onForward?: (request: ForwardedRequest) => void;
}

/** A mounted upstream. */
export interface Mount {
  readonly prefix: string;
  /** Where its connection is (see {@link MountState}). */
  readonly state: MountState;
}

/**
 * Mounts local servers and remote upstreams on `server`. Mount before clients connect, so
 * their handshake declares the lists (or declare `capabilities: { tools: {}, prompts: {},
 * resources: {} }` on the server).
 */
export class Composition {
  readonly server: McpServer;
  readonly #options: ComposeOptions;
  readonly #links = new Map<string, UpstreamLink>();

  constructor(server: McpServer, options: ComposeOptions = {}) {
    this.server = server;
    this.#options = options;
    // A downstream subscription to a mounted resource is also one upstream, so its updates come
    // back: `resources/subscribe` (legacy) or a listen stream's `resourceSubscriptions` (2026-07-28).
    server.use(['resources/subscribe', 'subscriptions/listen'], async (context, next) => {
      const { uri, notifications } = context.params;
      const listed = typeof notifications === 'object' && notifications !== null ? (notifications as { resourceSubscriptions?: unknown }).resourceSubscriptions : undefined;
      const uris = typeof uri === 'string' ? [uri] : Array.isArray(listed) ? listed.filter((item): item is string => typeof item === 'string') : [];
      await Promise.all(uris.map((item) => this.#follow(item)));
      return next();
    });
  }

  /** The mounts, by prefix. */
  get mounts(): ReadonlyMap<string, Mount> {
    return new Map([...this.#links].map(([prefix, link]) => [prefix, { prefix, state: link.state }]));
  }

  /**
   * Mounts `source` under `prefix`: a local `McpServer` (connected in memory) or an
   * {@link Upstream} from {@link proxy}; `''` mounts it without a namespace (a transparent
   * proxy). Resolves once its items are registered; rejects,
   * mounting nothing, when the first connection fails or `prefix` is taken or invalid.
   */
  async mount(prefix: string, source: McpServer | Upstream, options: { readonly separator?: NameSeparator } = {}): Promise<Mount> {
    const space = new Namespace(prefix, options.separator ?? this.#options.separator);
    if (this.#links.has(prefix)) throw new TypeError(`A mount with prefix ${JSON.stringify(prefix)} exists already`);
    const upstream = source instanceof McpServer ? local(source) : source;
    const report = this.#options.onDiagnostic ?? (() => undefined);
    const onMountState = this.#options.onMountState;
    const link = new UpstreamLink(upstream, {
      server: this.server,
      space,
      clock: this.#options.clock ?? systemClock,
      report,
      onState: (state) => onMountState?.(prefix, state),
      onForward: this.#options.onForward,
    });
    this.#links.set(prefix, link);
    try {
      await link.start();
    } catch (error) {
      this.#links.delete(prefix);
      throw error;
    }
    return { prefix, get state() { return link.state; } };
  }

  /** Removes a mount: its items leave the lists and its connection closes. */
  async unmount(prefix: string): Promise<void> {
    const link = this.#links.get(prefix);
    this.#links.delete(prefix);
    await link?.close();
  }

  /** Closes every mount (not the server itself). */
  async close(): Promise<void> {
    const links = [...this.#links.values()];
    this.#links.clear();
    await Promise.all(links.map((link) => link.close()));
  }

  /** Follows a downstream URI's updates on its upstream, when it belongs to a mount. */
  async #follow(uri: string): Promise<void> {
    const plus = uri.indexOf('+');
    const prefixed = plus > 0 ? this.#links.get(uri.slice(0, plus)) : undefined;
    const [link, upstreamUri] = prefixed === undefined ? [this.#links.get(''), uri] : [prefixed, uri.slice(plus + 1)];
    // A failure upstream leaves the downstream subscription in place, without updates from there.
    await link?.subscribe(upstreamUri).catch((error: unknown) => this.#options.onDiagnostic?.(`${uri}: following upstream updates failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/**
 * Starts composing on `server`: see {@link Composition}.
 *
 * @example
 * ```ts
 * const composition = compose(new McpServer({ name: 'gateway', version: '1.0.0' }));
 * await composition.mount('local', localServer);
 * ```
 */
export function compose(server: McpServer, options: ComposeOptions = {}): Composition {
  return new Composition(server, options);
}

/** A local server as an upstream: every connection is a fresh in-memory pair. */
function local(server: McpServer, options: ProxyOptions = {}): Upstream {
  return proxy(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    return clientSide;
  }, options);
}

