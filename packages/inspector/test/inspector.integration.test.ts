/**
 * The inspector endpoint over real sockets: who it lets in, what a viewer receives, and that a
 * viewer that stops reading is skipped instead of buffered.
 */
import { channel } from 'node:diagnostics_channel';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIAGNOSTIC_CHANNEL_NAMES } from '@statemcp/protocol';
import { startInspector, type Inspector } from '../src/index.js';
import { rawText } from '../src/inspector-server.js';
import { runDemoSession } from './demo-session.js';

const started: Inspector[] = [];
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
afterEach(async () => {
  await Promise.all(started.splice(0).map((inspector) => inspector.close()));
});

async function start(options: Parameters<typeof startInspector>[0] = {}): Promise<Inspector> {
  const inspector = await startInspector(options);
  started.push(inspector);
  return inspector;
}

interface Frame {
  readonly type: string;
  readonly dropped?: number;
  readonly events?: readonly { type: string; sessionId: string; to?: string; method?: string }[];
  readonly [key: string]: unknown;
}

/** A viewer: connects like the page does and collects every frame. */
async function view(inspector: Inspector, headers: Record<string, string> = {}): Promise<{ socket: WebSocket; frames: Frame[]; next: (test: (frame: Frame) => boolean) => Promise<Frame> }> {
  const socket = new WebSocket(`ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`, { headers });
  const frames: Frame[] = [];
  const waiters: { test: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(rawText(data)) as Frame;
    frames.push(frame);
    for (const waiter of waiters.splice(0)) {
      if (waiter.test(frame)) waiter.resolve(frame);
      else waiters.push(waiter);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = (test: (frame: Frame) => boolean) =>
    new Promise<Frame>((resolve) => {
      const seen = frames.find(test);
      if (seen !== undefined) resolve(seen);
      else waiters.push({ test, resolve });
    });
  return { socket, frames, next };
}

/** The status line the server answers an upgrade with. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', () => undefined);
  });
}

describe('startInspector', () => {
  describe('access', () => {
    it('refuses a page load and a WebSocket without the right token', async () => {
      const inspector = await start();
      const base = `http://127.0.0.1:${inspector.port}`;
      expect((await fetch(`${base}/`)).status).toBe(401);
      expect((await fetch(`${base}/?token=wrong`)).status).toBe(401);
      const page = await fetch(inspector.url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await upgradeStatus(`ws://127.0.0.1:${inspector.port}/events`)).toBe(401);
      expect(await upgradeStatus(`ws://127.0.0.1:${inspector.port}/events?token=wrong`)).toBe(401);
      expect(await upgradeStatus(`ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`)).toBe(101);
    });

    it('refuses a foreign Origin and a foreign Host', async () => {
      const inspector = await start();
      const url = `ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`;
      expect(await upgradeStatus(url, { origin: 'http://evil.example' })).toBe(403);
      expect(await upgradeStatus(url, { origin: 'http://localhost:1' })).toBe(403);
      expect(await upgradeStatus(url, { origin: `http://127.0.0.1:${inspector.port}` })).toBe(101);
      expect(await upgradeStatus(url, { host: `rebound.example:${inspector.port}` })).toBe(403);
      const page = await fetch(inspector.url, { headers: { origin: 'http://evil.example' } });
      expect(page.status).toBe(403);
    });

    it('binds to loopback unless a remote bind is asked for explicitly', async () => {
      await expect(startInspector({ host: '0.0.0.0' })).rejects.toThrow(/allowRemote/);
      await expect(startInspector({ host: '192.0.2.1' })).rejects.toThrow(/allowRemote/);
      const inspector = await start({ host: 'localhost' });
      expect(inspector.url).toMatch(/^http:\/\/localhost:\d+\/\?token=/);
    });
  });

  describe('viewers', () => {
    it('streams the machine graphs, then every transition of a real session', async () => {
      const inspector = await start({ flushIntervalMs: 5 });
      const viewer = await view(inspector);
      const hello = await viewer.next((frame) => frame.type === 'hello');
      expect((hello['connection'] as { states: string[] }).states).toEqual(['uninitialized', 'initializing', 'initialized', 'operating', 'shuttingDown', 'terminated']);

      await runDemoSession();
      const walked = new Map<string, string[]>();
      await viewer.next((frame) => {
        for (const event of frame.events ?? []) {
          if (event.type === 'session.transition') walked.set(event.sessionId, [...(walked.get(event.sessionId) ?? []), event.to ?? '']);
        }
        return [...walked.values()].filter((states) => states.includes('terminated')).length === 2;
      });
      for (const states of walked.values()) expect(states).toEqual(['initializing', 'initialized', 'operating', 'shuttingDown', 'terminated']);
      const requests = viewer.frames.flatMap((frame) => frame.events ?? []).filter((event) => event.type === 'request.transition');
      expect(requests.map((event) => event.to)).toEqual(expect.arrayContaining(['completed', 'cancelled', 'expired']));
    });

    it('gives a late viewer the history', async () => {
      const inspector = await start({ flushIntervalMs: 5 });
      const early = await view(inspector);
      await runDemoSession();
      await early.next((frame) => (frame.events ?? []).some((event) => event.to === 'terminated'));
      const late = await view(inspector);
      const history = await late.next((frame) => frame.type === 'events');
      expect((history.events ?? []).some((event) => event.type === 'session.transition' && event.to === 'operating')).toBe(true);
    });

    it('skips batches for a viewer that stops reading, and tells it how many when it reads again', async () => {
      const inspector = await start({ flushIntervalMs: 1, maxViewerBufferBytes: 64 * 1024 });
      const viewer = await view(inspector);
      await viewer.next((frame) => frame.type === 'hello');
      // Stop reading: the kernel buffers fill, then the server's socket buffer passes the limit.
      const raw = (viewer.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      raw.pause();
      const publish = channel(DIAGNOSTIC_CHANNEL_NAMES.diagnostic);
      const padding = 'x'.repeat(8 * 1024);
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      for (let round = 0; round < 40; round += 1) {
        for (let index = 0; index < 500; index += 1) publish.publish({ type: 'diagnostic', sessionId: 'flood', at: Date.now(), message: padding });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      collectGarbage();
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      // 20 000 events of 8 KiB were published (160 MiB); the inspector kept a bounded part.
      expect(heapGrowth).toBeLessThan(24 * 1024 * 1024);
      raw.resume();
      // Reading again: once the buffer drains, the next batch carries the count of skipped events.
      const reported = viewer.next((frame) => (frame.dropped ?? 0) > 0);
      const ticker = setInterval(() => publish.publish({ type: 'diagnostic', sessionId: 'flood', at: Date.now(), message: 'tick' }), 20);
      const report = await reported.finally(() => clearInterval(ticker));
      expect(report.dropped).toBeGreaterThan(0);
    });
  });
});
