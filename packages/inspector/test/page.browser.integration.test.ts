/**
 * The page in a real browser: Debian's Chromium driven by playwright-core. A session runs
 * while the page is open; the test reads what the page shows — the diagram's walk from
 * Uninitialized to Terminated for both sides, the ledger's cancelled and expired calls, the
 * tasks view (a task through input_required to completed, one cancelled), an MRTR round in
 * the ledger and a job queue's row — and saves a screenshot for the package README.
 */
import { channel } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TASK_QUEUE_CHANNEL_NAME, type TaskQueueEvent } from '@statemcp/protocol';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInspector, type Inspector } from '../src/index.js';
import { runDemoSession, runTaskSession } from './demo-session.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOT = fileURLToPath(new URL('../docs/inspector.png', import.meta.url));

let browser: Browser;
let inspector: Inspector;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  inspector = await startInspector({ title: 'browser test', flushIntervalMs: 10 });
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
});

describe('the inspector page', () => {
  it('shows both connections walking to Terminated and the cancelled and expired calls', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(inspector.url);
    await page.locator('#link[data-link="open"]').waitFor();

    const outcome = await runDemoSession();
    expect(outcome.cancelled).toBeInstanceOf(Error);
    expect(outcome.expired).toBeInstanceOf(Error);

    const cards = page.locator('.connection[data-state="terminated"]');
    await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(2);
    for (const card of await cards.all()) {
      const walk = await card.locator('.history li').evaluateAll((items) => items.map((item) => item.getAttribute('data-state')));
      expect(walk).toEqual(['uninitialized', 'initializing', 'initialized', 'operating', 'shuttingDown', 'terminated']);
      expect(await card.locator('.node.current').getAttribute('data-state-node')).toBe('terminated');
      expect(await card.locator('.node.visited').count()).toBe(6);
    }

    const outbound = page.locator('#ledger tbody tr[data-method="tools/call"]');
    await expect.poll(() => outbound.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state'))), { timeout: 20_000 }).toEqual(
      expect.arrayContaining(['completed', 'cancelled', 'expired']),
    );
    const cancelledRow = page.locator('#ledger tbody tr[data-state="cancelled"]').first();
    expect(await cancelledRow.locator('td.cancellation').textContent()).toContain('the user changed their mind');
    const progress = await page.locator('#ledger tbody tr[data-method="tools/call"] td:nth-child(8)').allTextContents();
    expect(progress).toContain('1/10');

    // The timeline filters by state; pausing freezes it.
    await page.selectOption('#filter-state', 'expired');
    await expect.poll(() => page.locator('#timeline li').count()).toBeGreaterThan(0);
    const expiredOnly = await page.locator('#timeline li').allTextContents();
    expect(expiredOnly.every((line) => line.includes('expired'))).toBe(true);
    await page.selectOption('#filter-state', '');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows tasks on the task machine, from both sides, and an MRTR round in the ledger', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(inspector.url);
    await page.locator('#link[data-link="open"]').waitFor();

    const outcome = await runTaskSession();
    expect(outcome.approved).toBe('accept');
    expect(outcome.cancelled).toBeInstanceOf(Error);
    expect(outcome.greeted).toBe('Hello, Ada!');

    // Four cards: each task seen by the server that runs it and the client that drives it.
    const cards = page.locator('#tasks .task');
    await expect.poll(() => cards.evaluateAll((items) => items.map((item) => `${item.getAttribute('data-side')}:${item.getAttribute('data-status')}`).sort()), { timeout: 20_000 }).toEqual([
      'client:cancelled',
      'client:completed',
      'server:cancelled',
      'server:completed',
    ]);
    const approved = page.locator('#tasks .task[data-side="server"][data-status="completed"]');
    expect(await approved.locator('.task-tool').textContent()).toBe('approve');
    expect(await approved.locator('.history li').evaluateAll((items) => items.map((item) => item.getAttribute('data-state')))).toEqual(['working', 'input_required', 'working', 'completed']);
    expect(await approved.locator('.node.current').getAttribute('data-state-node')).toBe('completed');
    expect(await approved.locator('.node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state-node')))).toEqual(['working', 'input_required', 'completed', 'failed', 'cancelled']);
    expect(await approved.locator('.edge.walked').evaluateAll((edges) => edges.map((edge) => edge.getAttribute('data-edge')).sort())).toEqual([
      'input_required>working',
      'working>completed',
      'working>input_required',
    ]);
    expect(await approved.locator('.task-connection').textContent()).toContain('tools/call #');
    const cancelledTask = page.locator('#tasks .task[data-side="server"][data-status="cancelled"]');
    expect(await cancelledTask.locator('.task-tool').textContent()).toBe('wait');
    expect(await cancelledTask.locator('.node.current').getAttribute('data-state-node')).toBe('cancelled');

    // The MRTR round: the client's call stays one row with its round and input key; the
    // server's first attempt shows the key it asked for.
    const outboundRound = page.locator('#ledger tbody tr[data-method="tools/call"][data-round="1"]');
    await expect.poll(() => outboundRound.count(), { timeout: 20_000 }).toBe(1);
    expect(await outboundRound.getAttribute('data-state')).toBe('completed');
    expect(await outboundRound.locator('td.input').textContent()).toBe('round 1: user_name');
    expect(await page.locator('#ledger tbody td.input', { hasText: 'input: user_name' }).count()).toBe(1);
    await page.selectOption('#filter-state', 'waitingForInput');
    await expect.poll(() => page.locator('#timeline li', { hasText: 'round 1' }).count()).toBeGreaterThan(0);
    await page.selectOption('#filter-state', 'input_required');
    await expect.poll(() => page.locator('#timeline li.kind-task').count()).toBeGreaterThan(0);
    await page.selectOption('#filter-state', '');

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows each job queue with its depth, latency, attempts and retries', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(inspector.url);
    await page.locator('#link[data-link="open"]').waitFor();

    // What @statemcp/task-queue reports (its own integration tests run the real queue).
    const queue = channel(TASK_QUEUE_CHANNEL_NAME);
    const at = Date.now();
    const events: TaskQueueEvent[] = [
      { type: 'queued', queue: 'reports', at, taskId: 'task-one-0001' },
      { type: 'queued', queue: 'reports', at, taskId: 'task-two-0002' },
      { type: 'started', queue: 'reports', at: at + 40, taskId: 'task-one-0001', attempt: 1, waitMs: 40 },
      { type: 'settled', queue: 'reports', at: at + 50, taskId: 'task-one-0001', attempt: 1, result: 'retry', durationMs: 10 },
      { type: 'started', queue: 'reports', at: at + 80, taskId: 'task-one-0001', attempt: 2, waitMs: undefined },
      { type: 'settled', queue: 'reports', at: at + 110, taskId: 'task-one-0001', attempt: 2, result: 'finished', durationMs: 30 },
      { type: 'depth', queue: 'reports', at: at + 120, waiting: 0, prioritized: 1, active: 0, delayed: 0, failed: 0 },
    ];
    for (const event of events) queue.publish(event);

    const row = page.locator('#queues tbody tr[data-queue="reports"]');
    await expect.poll(() => row.locator('td.results').textContent(), { timeout: 20_000 }).toBe('retry 1, finished 1');
    expect(await row.locator('td.waiting').textContent()).toBe('1');
    expect(await row.locator('td.queued').textContent()).toBe('2');
    expect(await row.locator('td.started').textContent()).toBe('2');
    expect(await row.locator('td.retries').textContent()).toBe('1');
    expect(await row.locator('td.latency').textContent()).toBe('40 ms');
    expect(await row.locator('td.duration').textContent()).toBe('10 ms');
    expect(await page.locator('#queues-panel .empty').isHidden()).toBe(true);
    // Attempts show in the timeline too; depth samples do not.
    await expect.poll(() => page.locator('#timeline li[data-type="task-queue"]').count()).toBe(6);
    expect(errors).toEqual([]);
    await page.close();
  });
});
