import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { StdioClientTransport, type StdioClientDiagnostic } from '../src/index.js';
import { node } from './support/paths.js';
import { RawPeer } from './support/raw-peer.js';

/** A server that ignores stdin closing and SIGTERM: only SIGKILL ends it. */
const stubborn = "process.on('SIGTERM', () => process.stderr.write('stubborn: ignoring SIGTERM\\n')); setInterval(() => {}, 1000); process.stdin.resume(); process.stderr.write('stubborn: ready\\n');";

describe('StdioClientTransport shutdown escalation on a SimulatedClock', () => {
  it('closes stdin, then SIGTERM after closeTimeoutMs, then SIGKILL after terminateTimeoutMs; no step early', async () => {
    const clock = new SimulatedClock();
    const events: StdioClientDiagnostic[] = [];
    let notify: () => void = () => undefined;
    const nextEvent = (type: StdioClientDiagnostic['type']): Promise<void> =>
      new Promise((resolve) => {
        notify = () => {
          if (events.some((event) => event.type === type)) resolve();
        };
        notify();
      });
    let stderr = '';
    let readyResolve: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (readyResolve = resolve));
    const transport = new StdioClientTransport({
      command: node,
      args: ['-e', stubborn],
      clock,
      closeTimeoutMs: 1000,
      terminateTimeoutMs: 1000,
      killTimeoutMs: 1000,
      onStderr: (chunk) => {
        stderr += chunk.toString();
        if (stderr.includes('stubborn: ready')) readyResolve();
      },
      onDiagnostic: (event) => {
        events.push(event);
        notify();
      },
    });
    /** Yields to the event loop until the transport has armed its next wait on the clock. */
    const armed = async (): Promise<void> => {
      while (clock.pendingTimers === 0) await new Promise((resolve) => setImmediate(resolve));
    };
    const peer = new RawPeer(transport);
    await transport.start(peer);
    await ready;

    const closed = transport.close();
    await nextEvent('stdin-closed');
    await armed();
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.filter((event) => event.type === 'signal')).toEqual([]);

    clock.advance(1);
    await nextEvent('signal');
    expect(events.filter((event) => event.type === 'signal').map((event) => (event as { signal: string }).signal)).toEqual(['SIGTERM']);

    await armed();
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.filter((event) => event.type === 'signal')).toHaveLength(1);
    clock.advance(1);
    await nextEvent('exit');

    // The group check after the exit polls on the same clock: step it until the close completes.
    let done = false;
    void closed.then(() => (done = true));
    while (!done) {
      clock.advance(20);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(events.map((event) => event.type)).toEqual(['spawned', 'stdin-closed', 'signal', 'signal', 'exit']);
    expect(events.filter((event) => event.type === 'signal').map((event) => (event as { signal: string }).signal)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(peer.closeInfo).toMatchObject({ initiator: 'local', details: { signal: 'SIGKILL' } });
  });
});
