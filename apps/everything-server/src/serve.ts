/**
 * Command line of the everything server (`main.ts` runs it).
 *
 *   everything-server --stdio                          serve one client over stdin/stdout
 *   everything-server --http [--port N] [--host H]     Streamable HTTP at http://H:N/mcp
 *        [--allowed-host NAME]...                      (127.0.0.1 and a random port by default;
 *                                                      a non-loopback H needs the names clients
 *                                                      use as Host, e.g. --allowed-host mcp.local)
 *   … --http --auth ISSUER [--auth-jwks URL] [--auth-scope S]… [--auth-dpop [--auth-dpop-nonce]]
 *        [--auth-resource URL]                         behind OAuth: JWT access tokens of ISSUER
 *   … --http --lambda                                 through a local AWS Lambda Function URL
 *                                                      (response streaming): each request becomes
 *                                                      a Lambda event for the handler of
 *                                                      @statemcp/http-transport/lambda
 *   … --http --redis URL [--instance-id ID] [--redis-prefix P] [--state-key KEY]
 *                                                      one instance of a cluster over Redis
 *                                                      (serve-cluster.ts), tasks on its job
 *                                                      queue; --redis-cluster URL[,URL…]
 *                                                      instead of --redis: over the Redis
 *                                                      Cluster with those nodes; the requestState key
 *                                                      comes from --state-key or the
 *                                                      STATEMCP_REQUEST_STATE_KEY variable
 *
 * Over HTTP every session gets an `Mcp-Session-Id`, SSE streams are resumable through an
 * in-memory event store, and the Host/Origin guard (DNS-rebinding protection) is on. Both modes
 * publish the `skills/` folder (skills extension). The URL
 * is printed to stdout once the server listens; logs go to stderr.
 */
import { hostname } from 'node:os';
import type { RequestId } from '@statemcp/protocol';
import { AllowedHostsRequiredError, createStreamableHttpServer, InMemoryEventStore, type StreamableHttpSessionTransport } from '@statemcp/http-transport/server';
import type { ServerConnection } from '@statemcp/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { createEverythingServer } from './fixtures.js';
import { addSkills } from './skills.js';
import { deferredAuthorization, protectedResourceFor, type AuthMode } from './serve-auth.js';
import { LAMBDA_DOMAIN, listenThroughLambda } from './serve-lambda.js';
import { connectCluster, STATE_KEY_ENV, type ClusterMode, type ClusterWiring } from './serve-cluster.js';

export type Mode =
  | { readonly kind: 'stdio' }
  | {
      readonly kind: 'http';
      readonly port: number;
      readonly host: string;
      /** `allowedHosts` of the server (`--allowed-host`, repeatable); needed to listen on a non-loopback `host`. */
      readonly allowedHosts?: readonly string[];
      /** Serve through the Lambda streaming handler behind a local Function URL emulator (`--lambda`). */
      readonly lambda?: boolean;
      readonly auth?: AuthMode;
      readonly cluster?: ClusterMode;
    };

const USAGE =
  'usage: everything-server --stdio | --http [--port N] [--host 127.0.0.1] [--allowed-host NAME]... [--lambda]\n' +
  '         [--auth ISSUER [--auth-jwks URL] [--auth-scope S]... [--auth-dpop] [--auth-dpop-nonce] [--auth-resource URL]]\n' +
  `         [--redis URL | --redis-cluster URL[,URL...] [--instance-id ID] [--redis-prefix P] [--state-key KEY (or ${STATE_KEY_ENV})]]`;

/** Parses the command line (`env` supplies the shared requestState key); throws with the usage on anything unexpected. */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Mode {
  let kind: 'stdio' | 'http' | undefined;
  let port = 0;
  let host = '127.0.0.1';
  const allowedHosts: string[] = [];
  let issuer: string | undefined;
  const auth = { jwksUri: undefined as string | undefined, scopes: [] as string[], dpop: false, dpopNonce: false, resource: undefined as string | undefined };
  let authFlags = false;
  const cluster = { redisUrl: undefined as string | undefined, redisCluster: undefined as string[] | undefined, instanceId: undefined as string | undefined, keyPrefix: undefined as string | undefined, stateKey: env[STATE_KEY_ENV] };
  let clusterFlags = false;
  let lambda = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = (): string => {
      const next = argv[i + 1];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      i += 1;
      return next;
    };
    if (arg === '--stdio' || arg === '--http') {
      if (kind !== undefined) throw new Error(`choose one of --stdio and --http\n${USAGE}`);
      kind = arg === '--stdio' ? 'stdio' : 'http';
    } else if (arg === '--port') {
      port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port\n${USAGE}`);
    } else if (arg === '--host') {
      host = value();
    } else if (arg === '--lambda') {
      lambda = true;
    } else if (arg === '--allowed-host') {
      allowedHosts.push(value());
    } else if (arg === '--auth') {
      issuer = value();
    } else if (arg === '--auth-jwks') {
      auth.jwksUri = value();
      authFlags = true;
    } else if (arg === '--auth-scope') {
      auth.scopes.push(value());
      authFlags = true;
    } else if (arg === '--auth-dpop' || arg === '--auth-dpop-nonce') {
      auth.dpop = true;
      if (arg === '--auth-dpop-nonce') auth.dpopNonce = true;
      authFlags = true;
    } else if (arg === '--auth-resource') {
      auth.resource = value();
      authFlags = true;
    } else if (arg === '--redis' || arg === '--redis-cluster') {
      if (cluster.redisUrl !== undefined) throw new Error(`give one of --redis and --redis-cluster\n${USAGE}`);
      const given = value();
      if (arg === '--redis-cluster') cluster.redisCluster = given.split(',').filter((node) => node !== '');
      cluster.redisUrl = cluster.redisCluster?.[0] ?? given;
    } else if (arg === '--instance-id' || arg === '--redis-prefix' || arg === '--state-key') {
      const given = value();
      if (arg === '--instance-id') cluster.instanceId = given;
      else if (arg === '--redis-prefix') cluster.keyPrefix = given;
      else cluster.stateKey = given;
      clusterFlags = true;
    } else {
      throw new Error(`unknown argument ${String(arg)}\n${USAGE}`);
    }
  }
  if (kind === undefined) throw new Error(USAGE);
  if ((issuer !== undefined || authFlags) && kind !== 'http') throw new Error(`--auth needs --http\n${USAGE}`);
  if (authFlags && issuer === undefined) throw new Error(`--auth-* flags need --auth ISSUER\n${USAGE}`);
  if (cluster.redisUrl !== undefined && kind !== 'http') throw new Error(`--redis needs --http\n${USAGE}`);
  if (clusterFlags && cluster.redisUrl === undefined) throw new Error(`--instance-id, --redis-prefix and --state-key need --redis URL\n${USAGE}`);
  if (allowedHosts.length > 0 && kind !== 'http') throw new Error(`--allowed-host needs --http\n${USAGE}`);
  if (lambda && kind !== 'http') throw new Error(`--lambda needs --http\n${USAGE}`);
  if (kind === 'stdio') return { kind };
  const listen = { kind, port, host, ...(allowedHosts.length === 0 ? {} : { allowedHosts }), ...(lambda ? { lambda } : {}) };
  const base = issuer === undefined ? listen : { ...listen, auth: { issuer, ...auth } };
  if (cluster.redisUrl === undefined) return base;
  if (cluster.stateKey === undefined || new TextEncoder().encode(cluster.stateKey).length < 32) {
    throw new Error(`--redis needs the instances' shared requestState key, at least 32 bytes: --state-key KEY or ${STATE_KEY_ENV}\n${USAGE}`);
  }
  return {
    ...base,
    cluster: {
      redisUrl: cluster.redisUrl,
      ...(cluster.redisCluster === undefined ? {} : { redisCluster: cluster.redisCluster }),
      instanceId: cluster.instanceId ?? `${hostname()}-${process.pid}`,
      keyPrefix: cluster.keyPrefix ?? 'statemcp:',
      stateKey: cluster.stateKey,
    },
  };
}

export async function serveStdio(): Promise<void> {
  const server = createEverythingServer();
  await addSkills(server);
  // The transport exits the process when stdin ends.
  await server.connect(new StdioServerTransport());
  process.stderr.write('everything-server: serving over stdio\n');
}

export async function serveHttp(port: number, host: string, auth?: AuthMode, cluster?: ClusterWiring, allowedHosts?: readonly string[], lambda = false): Promise<void> {
  const transports = new WeakMap<ServerConnection, StreamableHttpSessionTransport>();
  const server = createEverythingServer({
    closeRequestStream: (connection: ServerConnection, requestId: RequestId) => transports.get(connection)?.closeRequestStream(requestId) ?? false,
    ...cluster?.fixtures,
  });
  await addSkills(server);
  await cluster?.runTasks(server);
  const authorization = auth === undefined ? undefined : deferredAuthorization();
  const mcp = createStreamableHttpServer({
    path: '/mcp',
    ...(authorization === undefined ? {} : { authorization: authorization.layer }),
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    ...(lambda ? { allowedHosts: [...(allowedHosts ?? []), LAMBDA_DOMAIN] } : {}),
    eventStore: new InMemoryEventStore(),
    ...cluster?.http,
    retryIntervalMs: 500,
    connect: async (transport) => {
      const connection = await server.connect(transport);
      transports.set(connection, transport);
    },
    onError: (error) => process.stderr.write(`everything-server: ${String(error)}\n`),
  });
  const listening = lambda ? await listenThroughLambda(mcp, port) : await mcp.listen({ port, host });
  if (auth !== undefined && authorization !== undefined) {
    const resource = await protectedResourceFor(auth, listening.url, cluster?.dpopReplay);
    authorization.install(resource);
    process.stderr.write(`everything-server: OAuth on, metadata at ${resource.metadataUrl.href}\n`);
  }
  process.stdout.write(`everything-server listening on ${listening.url.href}\n`);
  const stop = (): void => {
    void listening
      .close()
      .then(() => cluster?.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export async function run(argv: readonly string[]): Promise<void> {
  let mode: Mode;
  try {
    mode = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (mode.kind === 'stdio') {
    await serveStdio();
    return;
  }
  let cluster: ClusterWiring | undefined;
  if (mode.cluster !== undefined) {
    try {
      cluster = await connectCluster(mode.cluster);
    } catch (error) {
      process.stderr.write(`everything-server: cannot join the cluster at ${redactedUrl(mode.cluster.redisUrl)}: ${(error as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`everything-server: instance ${mode.cluster.instanceId} of the cluster at ${redactedUrl(mode.cluster.redisUrl)}\n`);
  }
  try {
    await serveHttp(mode.port, mode.host, mode.auth, cluster, mode.allowedHosts, mode.lambda);
  } catch (error) {
    if (!(error instanceof AllowedHostsRequiredError)) throw error;
    process.stderr.write(`everything-server: ${error.message} (here: --allowed-host NAME)\n${USAGE}\n`);
    process.exitCode = 2;
    await cluster?.close();
  }
}

/** The Redis URL without its password, for messages. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return '(invalid URL)';
  }
}
