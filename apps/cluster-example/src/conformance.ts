/**
 * The official MCP conformance suite's server scenarios (`--suite active`, the suite's default
 * spec version) against a 3-instance cluster behind the round-robin proxy: every request of a
 * scenario may land on another instance, so a pass shows the cluster behaves as one server. Uses
 * the baseline of the single-server leg (tooling/conformance/expected-failures.yaml): the
 * cluster must fail nothing the single server does not.
 *
 *   pnpm --filter @statemcp/cluster-example conformance
 *   pnpm --filter @statemcp/cluster-example conformance:redis-cluster
 *   node apps/cluster-example/bin/conformance.mjs [--verbose] [--redis-cluster] [--suite S] [--spec-version V] [--scenario NAME]...
 *
 * (`--suite` and `--spec-version` go to the suite's CLI; each `--scenario` runs that one scenario
 * instead of a suite, one after the other against the same cluster — e.g. the tasks extension's
 * `tasks-*` scenarios, which only `--suite all` includes; `--redis-cluster` keeps the shared
 * state on a private Redis Cluster of three masters with a replica each instead of one Redis.)
 *
 * Exit status: the suite's. The CLI's log and checks.json files land in
 * .conformance-results/cluster-<timestamp>/ at the repository root.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startCluster } from './cluster.js';

/** The suite's pinned version; the same pin as tooling/conformance/run.mjs. */
const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { values: cli } = parseArgs({
  options: {
    verbose: { type: 'boolean', default: false },
    'redis-cluster': { type: 'boolean', default: false },
    suite: { type: 'string', default: 'active' },
    'spec-version': { type: 'string' },
    scenario: { type: 'string', multiple: true },
  },
});
const verbose = cli.verbose;

const out = join(root, '.conformance-results', `cluster-${new Date().toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(out, { recursive: true });
const logs: string[] = [];
const onRedisCluster = cli['redis-cluster'];
const cluster = await startCluster({ instances: 3, log: (line) => logs.push(line), ...(onRedisCluster ? { redisCluster: true as const } : {}) });
const over = onRedisCluster ? `a Redis Cluster of 3 masters (${cluster.redisCluster?.length ?? 0} nodes)` : 'one Redis';
process.stdout.write(`conformance: 3 instances over ${over} behind ${cluster.url.href}\n`);

/** Runs the suite's CLI once against the cluster (`selection`: a suite or one scenario) and resolves with its exit status. */
function runConformance(selection: readonly string[]): Promise<number> {
  const args = ['-y', '-p', 'node@22', '-p', CONFORMANCE_PACKAGE, 'conformance', 'server', '--url', cluster.url.href, ...selection];
  if (cli['spec-version'] !== undefined) args.push('--spec-version', cli['spec-version']);
  args.push('--expected-failures', join(root, 'tooling', 'conformance', 'expected-failures.yaml'), '-o', out);
  return new Promise<number>((done) => {
    const child = spawn(process.platform === 'win32' ? 'npx.cmd' : 'npx', args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' },
    });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (verbose) process.stdout.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', (error) => {
      output += String(error);
      done(1);
    });
    child.once('close', (status) => {
      appendFileSync(join(out, 'conformance.log'), output);
      if (!verbose) process.stdout.write(output.split('\n').filter((line) => /passed|failed|Total|Summary|✗|FAIL|regression|stale/i.test(line)).join('\n') + '\n');
      done(status ?? 1);
    });
  });
}

let code = 0;
const selections = cli.scenario === undefined ? [['--suite', cli.suite]] : cli.scenario.map((scenario) => ['--scenario', scenario]);
for (const selection of selections) {
  if (selection[0] === '--scenario') process.stdout.write(`conformance: ${selection[1] ?? ''}\n`);
  const status = await runConformance(selection);
  if (status !== 0) code = status;
}
await cluster.stop();
writeFileSync(join(out, 'instances.log'), logs.join('\n'));
process.stdout.write(`conformance: ${code === 0 ? 'passed' : `failed (status ${code})`} through the 3-instance cluster over ${over}; reports in ${out}\n`);
process.exit(code);
