/**
 * One long client session across the 3-instance cluster, every request through the round-robin
 * proxy (so consecutive requests land on different instances): the statemcp client in the
 * handshake era (the stateful era the cluster exists for) runs tools, a resource subscription
 * and its update, sampling (the server's request goes out on one instance, the client's answer
 * is POSTed to the next), a stream closed mid-call and resumed with `Last-Event-ID`; a client in
 * the 2026-07-28 era calls a tool and runs a task whose polls reach every instance, and a task run
 * on the instances' job queue pushes its moves to a listen stream on another instance than the
 * one that created it. Where the proxy's turn could hide the point, the test also asks each
 * instance directly.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { SimulatedClock, TASKS_EXTENSION_ID, withExtension, type CallToolResult } from '@statemcp/protocol';
import { testRedisUrl } from '@statemcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type ClusterInstance } from '../src/cluster.js';
import type { ForwardedRequest } from '../src/round-robin-proxy.js';

const LEGACY = '2025-11-25';

interface Sent {
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
}

let redis: { url: string; stop: () => Promise<void> };
let cluster: Cluster;
const forwarded: { target: number; request: ForwardedRequest }[] = [];
const logs: string[] = [];

beforeAll(async () => {
  redis = await testRedisUrl();
  cluster = await startCluster({ instances: 3, redisUrl: redis.url, log: (line) => logs.push(line), onForward: (target, request) => forwarded.push({ target, request }) });
});

afterAll(async () => {
  await cluster.stop();
  await redis.stop();
});

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : JSON.stringify(first);
}

/** A fetch that records what the client sends. */
function recording(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    sent.push({ method: request.method, headers: request.headers, body: request.body === null ? undefined : await request.clone().text() });
    return fetch(request);
  };
}

function rpcMethod(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  const message = JSON.parse(body) as { method?: string; result?: unknown };
  return message.method ?? (message.result === undefined ? undefined : 'response');
}

/** Which instances the proxy sent the requests of one session to. */
function targetsOf(sessionId: string): Set<number> {
  return new Set(forwarded.filter(({ request }) => request.headers['mcp-session-id'] === sessionId).map(({ target }) => target));
}

describe('a long session through the round-robin proxy over 3 instances', () => {
  it('keeps one handshake-era session whole: tools, subscription, sampling, a resumed stream', async () => {
    const sent: Sent[] = [];
    const transport = new StreamableHttpClientTransport(cluster.url, { fetch: recording(sent) });
    const client = new Client({ name: 'long-session', version: '1.0.0' }, { era: 'legacy', protocolVersion: LEGACY, defaultTimeoutMs: 20_000 });
    client.onSampling((params) => {
      const prompt = params.messages[0]?.content;
      return { role: 'assistant', model: 'cluster-test', content: { type: 'text', text: `echo ${prompt !== undefined && 'text' in prompt ? String(prompt.text) : '?'}` } };
    });
    await client.connect(transport);
    const sessionId = transport.sessionId ?? '';
    expect(sessionId).not.toBe('');
    try {
      // Tools, several times, so the calls rotate over the instances.
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['test_simple_text', 'test_sampling', 'test_reconnection', 'touch_watched_resource']));
      for (let i = 0; i < 3; i += 1) expect(text(await client.callTool({ name: 'test_simple_text' }))).toBe('This is a simple text response for testing.');
      const progress: number[] = [];
      expect(text(await client.callTool({ name: 'test_tool_with_progress' }, { onProgress: (update) => progress.push(update.progress) }))).toBe('Tool with progress completed');
      expect(progress).toEqual([0, 50, 100]);

      // A resource subscription, and the update announced by a tool call that another instance received.
      const updated = new Promise<string>((resolve) => client.onResourceUpdated(resolve));
      await client.subscribeResource({ uri: 'test://watched-resource' });
      expect(text(await client.callTool({ name: 'touch_watched_resource' }))).toBe('test://watched-resource updated');
      expect(await updated).toBe('test://watched-resource');
      await client.unsubscribeResource({ uri: 'test://watched-resource' });

      // Sampling: the server asks on the tool call's stream, the client's answer is a separate POST.
      expect(text(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'across instances' } }))).toBe('LLM response: echo across instances');
      expect(sent.filter((request) => rpcMethod(request.body) === 'response')).toHaveLength(1);

      // The server closes the call's stream mid-call; the client resumes it with Last-Event-ID.
      expect(text(await client.callTool({ name: 'test_reconnection' }))).toBe('Reconnection test completed after the stream was closed');
      const resume = sent.find((request) => request.method === 'GET' && request.headers.has('last-event-id'));
      expect(resume).toBeDefined();
      const lastEventId = resume?.headers.get('last-event-id') ?? '';

      // Whatever the proxy's turn was, every instance serves this session: replay the resumed
      // stream from each instance directly and find the call's result in every replay.
      for (const instance of cluster.instances) {
        const replay = await fetch(instance.url, {
          headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY, 'last-event-id': lastEventId },
        });
        expect(replay.status).toBe(200);
        const reader = replay.body?.getReader();
        let stream = '';
        while (reader !== undefined && !stream.includes('Reconnection test completed')) {
          const chunk = await reader.read();
          if (chunk.done) break;
          stream += new TextDecoder().decode(chunk.value);
        }
        await reader?.cancel();
        expect(stream).toContain('Reconnection test completed after the stream was closed');
      }

      expect(targetsOf(sessionId)).toEqual(new Set([0, 1, 2]));
    } finally {
      await client.close();
    }
    // The DELETE went to one instance and ended the session on all of them.
    const after = await fetch(cluster.instances[0]?.url ?? '', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  it('serves a 2026-07-28 client and a task created, polled and finished on different instances', async () => {
    const sent: Sent[] = [];
    const client = new Client({ name: 'modern', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID), defaultTimeoutMs: 20_000 });
    await client.connect(new StreamableHttpClientTransport(cluster.url, { fetch: recording(sent) }));
    try {
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(text(await client.callTool({ name: 'test_simple_text' }))).toBe('This is a simple text response for testing.');

      let task: ToolTask | undefined;
      const result = await client.callTool({ name: 'slow_compute', arguments: { seconds: 1, label: 'cluster' } }, { onTask: (handle) => (task = handle) });
      expect(text(result)).toBe('Computed cluster after 1s');
      expect(task).toBeDefined();
      expect(sent.filter((request) => rpcMethod(request.body) === 'tasks/get').length).toBeGreaterThanOrEqual(2);

      // The finished task is the same on every instance.
      for (const instance of cluster.instances) {
        const direct = new Client({ name: 'direct', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
        await direct.connect(new StreamableHttpClientTransport(instance.url));
        try {
          const seen = await direct.task(task?.taskId ?? '').get();
          expect(seen.status).toBe('completed');
        } finally {
          await direct.close();
        }
      }
    } finally {
      await client.close();
    }
  });

  it('pushes the moves of a task run on the job queue to a listen stream on another instance', async () => {
    const [first, second] = cluster.instances as [ClusterInstance, ClusterInstance];
    // Clocks that never move: neither client polls, so only notifications/tasks can end the follower's wait.
    const modern = (name: string): Client => new Client({ name, version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID), clock: new SimulatedClock() });
    const creator = modern('creator');
    const follower = modern('follower');
    await creator.connect(new StreamableHttpClientTransport(first.url));
    await follower.connect(new StreamableHttpClientTransport(second.url));
    const stop = new AbortController();
    try {
      const taskId = await new Promise<string>((resolve, reject) => {
        creator.callTool({ name: 'slow_compute', arguments: { seconds: 1, label: 'pushed' } }, { onTask: (task) => resolve(task.taskId), signal: stop.signal }).catch((error: unknown) => {
          if (!stop.signal.aborted) reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
      const stream = await follower.listen({ taskIds: [taskId] });
      expect(stream.acknowledged).toEqual({ taskIds: [taskId] });
      const heard: unknown[] = [];
      stream.onNotification((note) => heard.push(note.params['status']));
      expect(text(await follower.task(taskId).result())).toBe('Computed pushed after 1s');
      expect(heard).toContain('completed');
      await stream.close();
    } finally {
      stop.abort();
      await creator.close();
      await follower.close();
    }
  });
});
