/**
 * `--redis` (or `--redis-cluster`, the nodes of a Redis Cluster): the everything server as one
 * instance of a cluster. Every shared store comes from
 * `@statemcp/redis-store` (loaded only here, with a dynamic import, so a server started without
 * `--redis` never loads the Redis client): session records and the message bus for the
 * cross-instance relay, the instances' liveness (a dead instance's sessions are adopted), the
 * resumable SSE event store, the tasks extension's durable store, and the subscription store
 * with which a resource change on one instance reaches subscribers on all, and (with `--auth`)
 * the DPoP replay set, so a proof used at one instance is refused at every other. The Multi Round-Trip
 * `requestState` key is shared by the instances (one instance seals a round's state, another
 * may open it).
 */
import type { StreamableHttpServerOptions } from '@statemcp/http-transport/server';
import type { DpopReplayStore } from '@statemcp/http-transport/auth';
import type { EverythingServerOptions } from './fixtures.js';

/** The environment variable holding the shared `requestState` key when `--state-key` is not given. */
export const STATE_KEY_ENV = 'STATEMCP_REQUEST_STATE_KEY';

/** How one instance joins the cluster (the `--redis` flags). */
export interface ClusterMode {
  /** `redis://…` of the shared Redis (with `redisCluster`, its first node). */
  readonly redisUrl: string;
  /** The nodes of a Redis Cluster (`--redis-cluster URL,…`) the shared state lives on, instead of one Redis. */
  readonly redisCluster?: readonly string[];
  /** This instance's id, unique in the cluster (the `owner` of the sessions it runs). */
  readonly instanceId: string;
  /** Prefix of every Redis key and channel; the instances of one cluster share it. */
  readonly keyPrefix: string;
  /** The HMAC key sealing `requestState` (at least 32 bytes), the same on every instance. */
  readonly stateKey: string;
}

/** The options a cluster instance adds to the HTTP server and to the fixtures, and how to let go of Redis. */
export interface ClusterWiring {
  readonly http: Pick<StreamableHttpServerOptions, 'cluster' | 'eventStore'>;
  readonly fixtures: Pick<EverythingServerOptions, 'taskStore' | 'requestState' | 'cluster'>;
  /** The replay set of DPoP proofs the instances share (`--auth-dpop`). */
  readonly dpopReplay: DpopReplayStore;
  /** Closes the Redis connections. */
  close(): Promise<void>;
}

/**
 * Connects to Redis and builds the wiring. Rejects (with the package's
 * `SharedStoreUnavailableError`) when Redis cannot be reached, so the server fails at start
 * rather than on its first request.
 */
export async function connectCluster(mode: ClusterMode): Promise<ClusterWiring> {
  const { connectRedisStores } = await import('@statemcp/redis-store');
  const stores = await connectRedisStores({
    ...(mode.redisCluster === undefined ? { url: mode.redisUrl } : { cluster: mode.redisCluster }),
    keyPrefix: mode.keyPrefix,
    connectTimeoutMs: 3000,
    onError: (error) => process.stderr.write(`everything-server: redis: ${error.message}\n`),
  });
  return {
    http: { cluster: { instanceId: mode.instanceId, sessions: stores.sessions, bus: stores.bus, liveness: stores.liveness }, eventStore: stores.events },
    fixtures: {
      taskStore: stores.tasks,
      requestState: { key: mode.stateKey },
      cluster: { instanceId: mode.instanceId, bus: stores.bus, subscriptions: stores.subscriptions },
    },
    dpopReplay: stores.dpopReplay,
    close: () => stores.close(),
  };
}
