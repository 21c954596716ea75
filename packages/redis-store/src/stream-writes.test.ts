import { describe, expect, it } from 'vitest';
import { StreamWrites, type StreamBatch } from './stream-writes.js';

const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 't', progress: n } });

describe('StreamWrites', () => {
  it('a failed batch rejects its own writes only: reads wait for nothing of it, and the stream\'s later writes go on', async () => {
    const sent: StreamBatch[] = [];
    let failNext = true;
    const writes = new StreamWrites((batch) => {
      sent.push(batch);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('cut by a failover'));
      }
      return Promise.resolve(batch.events.map((_event, index) => `${sent.length}-${index}`));
    });

    // One task: the record, the priming event and a notification gather into one batch, which fails.
    const tracked = writes.track('s.1', { requestIds: [1], instanceId: 'a' });
    const priming = writes.append('s.1', undefined);
    const first = writes.append('s.1', note(1));
    const read = writes.written('s.1');
    await expect(tracked).rejects.toThrow('cut by a failover');
    await expect(priming).rejects.toThrow('cut by a failover');
    await expect(first).rejects.toThrow('cut by a failover');
    await read;
    expect(sent).toHaveLength(1);
    expect(sent[0]?.record.kind).toBe('set');

    // The next task's writes are a batch of their own and succeed.
    expect(await writes.append('s.1', note(2))).toBe('2-0');
    await writes.written('s.1');
    expect(sent.map((batch) => batch.events.length)).toEqual([2, 1]);
    expect(sent[1]?.record.kind).toBe('refresh');
  });
});
