/**
 * The cluster example's command:
 *
 *   cluster-example [--instances 3] [--redis redis://… | --redis-cluster [redis://…,…]] [--port 0]
 *
 * (`--redis-cluster` alone starts a private Redis Cluster; with a value, the nodes of one)
 *
 * starts the instances and the round-robin proxy (cluster.ts), prints the endpoint to point a
 * client at (`cluster-example: proxy listening on http://127.0.0.1:<port>/mcp`), and on SIGINT or
 * SIGTERM stops everything it started and exits 0.
 */
import { parseArgs } from 'node:util';
import { startCluster, type ClusterOptions } from './cluster.js';

const USAGE = 'usage: cluster-example [--instances N] [--redis redis://host:port | --redis-cluster [redis://host:port,...]] [--port P]';

/** Reads the command line; throws with the usage on anything unexpected. */
export function readOptions(argv: readonly string[]): ClusterOptions {
  // `--redis-cluster` takes an optional value: a bare flag becomes `--redis-cluster=` (a private cluster).
  const args = argv.map((arg, index) => (arg === '--redis-cluster' && (argv[index + 1] === undefined || argv[index + 1]?.startsWith('--') === true) ? '--redis-cluster=' : arg));
  const { values } = parseArgs({
    args,
    options: { instances: { type: 'string' }, redis: { type: 'string' }, 'redis-cluster': { type: 'string' }, port: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const instances = values.instances === undefined ? 3 : Number(values.instances);
  if (!Number.isInteger(instances) || instances < 1) throw new Error(`--instances must be a positive integer\n${USAGE}`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port\n${USAGE}`);
  const nodes = values['redis-cluster'];
  if (nodes !== undefined && values.redis !== undefined) throw new Error(`give one of --redis and --redis-cluster\n${USAGE}`);
  const redisCluster = nodes === undefined ? undefined : nodes === '' ? true : nodes.split(',').filter((node) => node !== '');
  return { instances, port, ...(values.redis === undefined ? {} : { redisUrl: values.redis }), ...(redisCluster === undefined ? {} : { redisCluster }) };
}

export async function run(argv: readonly string[]): Promise<void> {
  let options: ClusterOptions;
  try {
    options = readOptions(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message.includes('usage') ? '' : `${USAGE}\n`}${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const cluster = await startCluster(options);
  const redis =
    cluster.redisCluster !== undefined
      ? `${options.redisCluster === true ? 'a private ' : 'the '}Redis Cluster at ${cluster.redisCluster.join(', ')}`
      : options.redisUrl === undefined
        ? `a private redis-server at ${cluster.redisUrl}`
        : cluster.redisUrl;
  process.stderr.write(`cluster-example: ${cluster.instances.length} instances (${cluster.instances.map((i) => `${i.id} ${i.url.host} pid ${i.pid}`).join(', ')}) over ${redis}\n`);
  process.stdout.write(`cluster-example: proxy listening on ${cluster.url.href}\n`);
  const stop = (signal: string): void => {
    process.stderr.write(`cluster-example: ${signal}, stopping\n`);
    void cluster.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
