/**
 * The job queue on a Redis Cluster of three masters with one replica each (issue 40, item 4):
 * the same instance and worker processes as the one-Redis tests, given the cluster's nodes
 * (`cluster:<url>,…`): task records, the bus and the subscriptions of `@statemcp/redis-store`
 * spread over the shards, the BullMQ queue and its run states in the slot of its prefix's hash
 * tag (`{queue-test}`).
 *
 * - Kill-the-worker, as on one Redis (`workerDiesMidTask`).
 * - Every master fails over in turn (`CLUSTER FAILOVER` on its replica; the queue's shard first)
 *   while eight tasks run on two workers: every task completes, once, with every step. The
 *   tasks hold their last step until the workers are released after the last failover, so the
 *   failovers happen mid-run however long they take on a loaded machine.
 */
import { SimulatedClock } from '@statemcp/protocol';
import { startRedisCluster, type TestRedisCluster } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QueueHarness, workerDiesMidTask } from './queue-harness.js';

let redis: TestRedisCluster;
const harness = new QueueHarness(() => `cluster:${redis.urls.join(',')}`);

beforeAll(async () => {
  redis = await startRedisCluster();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  await harness.cleanup();
});

describe('the job queue on a Redis Cluster', () => {
  it('kill-the-worker: resumes on another worker from its checkpoint; the client polling another instance sees one sequence and one result', async () => {
    await workerDiesMidTask(harness);
  });

  it('loses no task and runs none twice while every master fails over mid-run', async () => {
    const where = harness.place();
    const [a, b, w1, w2] = await Promise.all([
      harness.start('instance', where, 'a'),
      harness.start('instance', where, 'b'),
      harness.start('worker', where, 'w1'),
      harness.start('worker', where, 'w2'),
    ]);
    const creator = await harness.connect(a, new SimulatedClock());
    const poller = await harness.connect(b);
    const steps = 40;
    // 8 s a task, the last step held until the release below: every failover happens mid-run.
    const ids = await Promise.all(Array.from({ length: 8 }, () => harness.createTask(creator, 'count', { steps, stepMs: 200, hold: true })));
    await Promise.race([w1, w2].map((worker) => worker.waitFor((event) => event.event === 'step')));

    // The queue's shard first, then the others: each master hands over to its replica.
    const queueMaster = await redis.masterOf('{queue-test}');
    const others = (await redis.roles()).filter((node) => node.role === 'master' && node.port !== queueMaster).map((node) => node.port);
    for (const port of [queueMaster, ...others]) await redis.failover({ masterPort: port });
    // The failovers happened while the tasks ran: none had run its last step by the last one.
    const finishedBefore = harness.processes.flatMap((child) => child.events).filter((event) => event.event === 'step' && event.step === steps);
    expect(finishedBefore).toEqual([]);
    for (const worker of [w1, w2]) worker.release();

    const results = await Promise.all(ids.map((id) => poller.task(id).result()));
    await Promise.all(ids.map((id) => harness.reported(id, 'completed')));
    for (const [index, id] of ids.entries()) {
      expect(results[index]?.structuredContent).toMatchObject({ steps });
      expect(harness.changes(id, 'completed')).toHaveLength(1);
      // Every step ran, on whichever workers ran the task's attempts.
      const ran = new Set([...harness.steps(id, 'w1'), ...harness.steps(id, 'w2')]);
      expect(ran.size).toBe(steps);
    }
  });
});
