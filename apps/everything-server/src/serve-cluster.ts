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
 * may open it). Tasks run on a job queue (`@statemcp/task-queue`, also loaded only here): an
 * instance creating a task queues its job, and every instance runs a worker taking jobs from it,
 * so a task created through one instance may run on another, and survives the death of either.
 */
import type { StreamableHttpServerOptions } from '@statemcp/http-transport/server';
import type { DpopReplayStore } from '@statemcp/http-transport/auth';
import type { McpServer } from '@statemcp/server';
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
  readonly fixtures: Pick<EverythingServerOptions, 'taskStore' | 'taskExecutor' | 'requestState' | 'cluster'>;
  /** The replay set of DPoP proofs the instances share (`--auth-dpop`). */
  readonly dpopReplay: DpopReplayStore;
  /** Starts this instance's worker of the task queue, running jobs with `server`'s tools. */
  runTasks(server: McpServer): Promise<void>;
  /** Drains the worker (running tasks are handed back to the other instances), then closes the Redis connections. */
  close(): Promise<void>;
}

/** How long a stopping instance lets its running tasks finish before handing them back, ms. */
const DRAIN_DEADLINE_MS = 2_000;

/**
 * Connects to Redis and builds the wiring. Rejects (with the package's
 * `SharedStoreUnavailableError`) when Redis cannot be reached, so the server fails at start
 * rather than on its first request.
 */
export async function connectCluster(mode: ClusterMode): Promise<ClusterWiring> {
  const [{ connectRedisStores }, { TaskQueue, TaskWorker }] = await Promise.all([import('@statemcp/redis-store'), import('@statemcp/task-queue')]);
  const stores = await connectRedisStores({
    ...(mode.redisCluster === undefined ? { url: mode.redisUrl } : { cluster: mode.redisCluster }),
    keyPrefix: mode.keyPrefix,
    connectTimeoutMs: 3000,
    onError: (error) => process.stderr.write(`everything-server: redis: ${error.message}\n`),
  });
  // The queue's keys live under the cluster's prefix too (a BullMQ prefix takes no trailing colon);
  // on a Redis Cluster the prefix is a hash tag, so every key of the queue shares one slot.
  const queuePrefix = mode.keyPrefix.replace(/:+$/, '') || 'statemcp';
  const queueConnection =
    mode.redisCluster === undefined ? { connection: mode.redisUrl, prefix: queuePrefix } : { connection: { cluster: mode.redisCluster }, prefix: `{${queuePrefix.replace(/[{}]/g, '')}}` };
  const queue = new TaskQueue(queueConnection);
  let worker: InstanceType<typeof TaskWorker> | undefined;
  return {
    http: { cluster: { instanceId: mode.instanceId, sessions: stores.sessions, bus: stores.bus, liveness: stores.liveness }, eventStore: stores.events },
    fixtures: {
      taskStore: stores.tasks,
      taskExecutor: queue,
      requestState: { key: mode.stateKey },
      cluster: { instanceId: mode.instanceId, bus: stores.bus, subscriptions: stores.subscriptions },
    },
    dpopReplay: stores.dpopReplay,
    runTasks: async (server) => {
      worker = new TaskWorker({
        ...queueConnection,
        server,
        concurrency: 16,
        onError: (error) => process.stderr.write(`everything-server: task worker: ${error instanceof Error ? error.message : String(error)}\n`),
      });
      await worker.ready();
    },
    close: async () => {
      await worker?.drain(DRAIN_DEADLINE_MS);
      await queue.close();
      await stores.close();
    },
  };
}
