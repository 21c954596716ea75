import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { TestBus } from '../test-cluster.js';
import { flush } from '../test-harness.js';
import { TaskCommands, type TaskCommand } from './task-commands.js';

describe('TaskCommands', () => {
  describe('#send', () => {
    it('resolves false when no instance runs the task', async () => {
      const commands = new TaskCommands({ bus: new TestBus() });
      expect(await commands.send('t1', { kind: 'cancel' })).toBe(false);
    });

    it('has the running instance apply the command and resolves true once it did', async () => {
      const bus = new TestBus();
      const applied: [string, TaskCommand][] = [];
      const running = new TaskCommands({ bus });
      const release = await running.serve('t1', async (taskId, command) => {
        applied.push([taskId, command]);
      });
      const other = new TaskCommands({ bus });
      expect(await other.send('t1', { kind: 'update', inputResponses: { 'input-1': { action: 'accept' } } })).toBe(true);
      expect(applied).toEqual([['t1', { kind: 'update', inputResponses: { 'input-1': { action: 'accept' } } }]]);
      await release();
      expect(await other.send('t1', { kind: 'cancel' })).toBe(false);
      expect(bus.channels.size).toBe(0);
    });

    it('rejects with the running instance\'s error when it could not apply the command', async () => {
      const bus = new TestBus();
      await new TaskCommands({ bus }).serve('t1', () => Promise.reject(new Error('the task store is unreachable')));
      await expect(new TaskCommands({ bus }).send('t1', { kind: 'cancel' })).rejects.toThrow('the task store is unreachable');
    });

    it('resolves false when the reply does not come within replyTimeoutMs (the message was lost)', async () => {
      const bus = new TestBus();
      const clock = new SimulatedClock();
      await new TaskCommands({ bus }).serve('t1', () => Promise.resolve());
      bus.drop.add('task:t1');
      const sending = new TaskCommands({ bus, clock, replyTimeoutMs: 1_000 }).send('t1', { kind: 'cancel' });
      await flush();
      clock.advance(999);
      await flush();
      let settled = false;
      void sending.then(() => (settled = true));
      await flush();
      expect(settled).toBe(false);
      clock.advance(1);
      expect(await sending).toBe(false);
      expect(clock.pendingTimers).toBe(0);
    });
  });

  describe('#serve', () => {
    it('ignores messages that are not commands', async () => {
      const bus = new TestBus();
      const applied: string[] = [];
      await new TaskCommands({ bus }).serve('t1', async (taskId) => {
        applied.push(taskId);
      });
      for (const junk of ['{}', 'not json', 'null', JSON.stringify({ command: { kind: 'explode' }, reply: 'x' }), JSON.stringify({ command: { kind: 'update' }, reply: 'x' })]) {
        bus.publish('task:t1', junk);
      }
      await flush();
      expect(applied).toEqual([]);
    });
  });
});
