// The whole quickstart, with real child processes over stdio and over HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { ALL_STATES, runQuickstart } from '../src/tour.js';

describe('runQuickstart', () => {
  it('walks both legacy legs through all six connection states with the timeout and its cancellation, and the modern leg through discovery, a cached list, an MRTR round and a listen stream', async () => {
    const lines: string[] = [];
    const ok = await runQuickstart((line) => lines.push(line));
    const output = lines.join('\n');
    expect(ok, output).toBe(true);
    const [legacy = '', modern = ''] = output.split('━━ 2026-07-28');
    const [stdio = '', http = ''] = legacy.split('━━ Streamable HTTP');
    for (const leg of [stdio, http]) {
      for (const state of ALL_STATES) expect(leg).toContain(state);
      expect(leg).toContain('negotiated protocol 2025-11-25');
      expect(leg).toContain('tools/call greet: "Hello, statemcp!"');
      expect(leg).toContain('notifications/cancelled');
      expect(leg).toMatch(/client {2}request {5}→ tools\/call #\d+ {2}dispatched → expired/);
      expect(leg).toMatch(/server {2}request {5}← tools\/call #\d+ {2}processing → cancelled/);
      expect(leg).toContain('server  connection  ShuttingDown → Terminated');
    }
    expect(modern).toContain('server/discover: era modern, protocol 2026-07-28');
    expect(modern).not.toMatch(/→ initialize #/);
    expect(modern).toContain('tools/list again: served from the response cache, nothing sent (cache hits 1, misses 1)');
    // An MRTR round: the server's inbound request waits for input and completes with the InputRequiredResult; the client retries under a new id.
    expect(modern).toMatch(/server {2}request {5}← tools\/call #(\d+) {2}processing → waitingForInput/);
    expect(modern).toMatch(/client {2}request {5}→ tools\/call #\d+ {2}dispatched → waitingForInput/);
    expect(modern).toContain('onElicitation: "What is your name?" → accept {name: "Ada"}');
    expect(modern).toMatch(/client {2}request {5}→ tools\/call #\d+ {2}waitingForInput → processing/);
    expect(modern).toContain('tools/call ask_name: "Hello, Ada!" after 1 input round(s)');
    // A listen stream: acknowledged, a notification tagged with its subscription id, the server's graceful end.
    const subscription = /listen acknowledged: subscriptionId (\d+), honoured \{"toolsListChanged":true\}/.exec(modern)?.[1];
    expect(subscription, modern).toBeDefined();
    expect(modern).toContain(`listen notification: notifications/tools/list_changed, subscriptionId ${String(subscription)}`);
    expect(modern).toContain('tools/list after the change: greet, slow_task, ask_name, add_tool, end_listens, farewell (the notification invalidated the cached list; cache misses 2)');
    expect(modern).toContain('listen ended: reason server');
    expect(modern).toMatch(new RegExp(`server {2}request {5}← subscriptions/listen #${String(subscription)} {2}processing → completed`));
    // The first tools/list went out, the second came from the cache, the third followed the change.
    expect(modern.match(/client {2}request {5}→ tools\/list #\d+ {2}created\n/g)).toHaveLength(2);
  });
});
