import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { McpServer, MemoryTaskStore } from '@statemcp/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recorder } from '../test/support.js';
import { MCP_METRICS, McpTelemetry } from './index.js';

/** A statemcp server and client in memory, each with its own telemetry and recorder. */
async function pair(era: 'legacy' | 'auto') {
  const serverSide = recorder('server');
  const clientSide = recorder('client');
  const serverTelemetry = new McpTelemetry({ side: 'server', tracer: serverSide.tracer, meter: serverSide.meter });
  const clientTelemetry = new McpTelemetry({ side: 'client', tracer: clientSide.tracer, meter: clientSide.meter });
  const server = new McpServer({ name: 'traced', version: '1.0.0' }, { requestState: { key: 'a secret of at least 32 bytes!!!' } });
  server.use(serverTelemetry.middleware);
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('broken', {}, () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
  server.registerTool('refused', {}, () => {
    throw new JsonRpcError(-32050, 'refused');
  });
  server.registerTool('greet', {}, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)}` }] };
  });
  server.registerPrompt('review', { argsSchema: { code: z.string() } }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: code } }] }));
  const [a, b] = InMemoryTransport.createPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1.0.0' }, { era, onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) });
  client.use(clientTelemetry.middleware);
  await client.connect(a);
  return { server, client, serverSide, clientSide, serverTelemetry, clientTelemetry };
}

describe('McpTelemetry', () => {
  describe('#middleware', () => {
    it.each(['legacy', 'auto'] as const)('parents the server span with the client span through _meta (era %s)', async (era) => {
      const { client, serverSide, clientSide } = await pair(era);
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      const clientSpan = clientSide.spans().find((span) => span.name === 'tools/call echo');
      const serverSpan = serverSide.spans().find((span) => span.name === 'tools/call echo');
      expect(clientSpan?.kind).toBe(SpanKind.CLIENT);
      expect(serverSpan?.kind).toBe(SpanKind.SERVER);
      expect(serverSpan?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
      expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
      expect(serverSpan?.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': client.protocolVersion,
      });
      expect(typeof serverSpan?.attributes['jsonrpc.request.id']).toBe('string');
      await client.close();
    });

    it('marks a tool error, a JSON-RPC error and names prompt spans after the prompt', async () => {
      const { client, serverSide, clientSide } = await pair('legacy');
      await client.callTool({ name: 'broken' });
      await client.callTool({ name: 'refused' }).catch(() => undefined);
      await client.getPrompt({ name: 'review', arguments: { code: 'x' } });
      const broken = serverSide.spans().find((span) => span.name === 'tools/call broken');
      expect(broken?.status.code).toBe(SpanStatusCode.ERROR);
      expect(broken?.attributes['error.type']).toBe('tool_error');
      const refused = clientSide.spans().find((span) => span.name === 'tools/call refused');
      expect(refused?.attributes).toMatchObject({ 'error.type': '-32050', 'rpc.response.status_code': '-32050' });
      expect(refused?.status.code).toBe(SpanStatusCode.ERROR);
      expect(serverSide.spans().find((span) => span.name === 'prompts/get review')?.attributes['gen_ai.prompt.name']).toBe('review');
      await client.close();
    });

    it('gives each Multi Round-Trip round a server span under the one client span', async () => {
      const { client, serverSide, clientSide } = await pair('auto');
      expect(client.era).toBe('modern');
      await client.callTool({ name: 'greet' });
      const clientSpans = clientSide.spans().filter((span) => span.name === 'tools/call greet' && span.kind === SpanKind.CLIENT);
      const rounds = serverSide.spans().filter((span) => span.name === 'tools/call greet');
      expect(clientSpans).toHaveLength(1);
      expect(rounds).toHaveLength(2);
      for (const round of rounds) expect(round.parentSpanContext?.spanId).toBe(clientSpans[0]?.spanContext().spanId);
      // The client answered the round's input request: a SERVER span of its own, inside the call's trace.
      const input = clientSide.spans().find((span) => span.name === 'elicitation/create');
      expect(input?.kind).toBe(SpanKind.SERVER);
      await client.close();
    });

    it('links the spans of a task to the span of the tools/call that created it, on both sides', async () => {
      const serverSide = recorder('server');
      const clientSide = recorder('client');
      const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { taskExtension: { store: new MemoryTaskStore({ maxTasks: 10 }), pollIntervalMs: 1 } });
      server.use(new McpTelemetry({ side: 'server', tracer: serverSide.tracer, meter: serverSide.meter }).middleware);
      server.registerTool('report', { execution: { taskSupport: 'optional' } }, () => ({ content: [{ type: 'text', text: 'done' }] }));
      const [a, b] = InMemoryTransport.createPair();
      await server.connect(b);
      const client = new Client({ name: 'c', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
      client.use(new McpTelemetry({ side: 'client', tracer: clientSide.tracer, meter: clientSide.meter }).middleware);
      await client.connect(a);
      expect((await client.callTool({ name: 'report' })).content).toEqual([{ type: 'text', text: 'done' }]);
      for (const side of [serverSide, clientSide]) {
        const call = side.spans().find((span) => span.name === 'tools/call report');
        const taskSpans = side.spans().filter((span) => span.name.startsWith('tasks/'));
        expect(taskSpans.length).toBeGreaterThan(0);
        for (const span of taskSpans) expect(span.links.map((link) => link.context.spanId)).toEqual([call?.spanContext().spanId]);
      }
      await client.close();
    });

    it('records the operation durations on both sides and the session durations once the sessions end', async () => {
      const { client, serverSide, clientSide, server, serverTelemetry, clientTelemetry } = await pair('legacy');
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      const serverOps = await serverSide.histogram(MCP_METRICS.serverOperationDuration);
      const clientOps = await clientSide.histogram(MCP_METRICS.clientOperationDuration);
      expect(serverOps?.descriptor.unit).toBe('s');
      const call = serverOps?.dataPoints.find((point) => point.attributes['mcp.method.name'] === 'tools/call');
      expect(call?.value.count).toBe(1);
      expect(call?.attributes).not.toHaveProperty('jsonrpc.request.id');
      expect(clientOps?.dataPoints.some((point) => point.attributes['gen_ai.tool.name'] === 'echo')).toBe(true);
      await client.close();
      await server.close();
      const serverSessions = await serverSide.histogram(MCP_METRICS.serverSessionDuration);
      const clientSessions = await clientSide.histogram(MCP_METRICS.clientSessionDuration);
      expect(serverSessions?.dataPoints[0]?.value.count).toBe(1);
      expect(clientSessions?.dataPoints[0]?.value.count).toBe(1);
      serverTelemetry.close();
      clientTelemetry.close();
    });
  });
  describe('without an OpenTelemetry SDK', () => {
    it('passes every message through unchanged, a traced caller\'s trace context included', async () => {
      // The server has the API alone (no tracer, meter or global provider); the client is traced.
      const clientSide = recorder('client');
      const bare = new McpTelemetry({ side: 'server' });
      const server = new McpServer({ name: 'bare', version: '1.0.0' });
      server.use(bare.middleware);
      server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }, extra) => ({
        content: [{ type: 'text', text }],
        structuredContent: { traceparent: extra.traceContext?.traceparent ?? null },
      }));
      server.registerTool('broken', {}, () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
      server.registerTool('refused', {}, () => {
        throw new JsonRpcError(-32050, 'refused');
      });
      const [a, b] = InMemoryTransport.createPair();
      await server.connect(b);
      const client = new Client({ name: 'c', version: '1.0.0' }, { era: 'legacy' });
      client.use(new McpTelemetry({ side: 'client', tracer: clientSide.tracer, meter: clientSide.meter }).middleware);
      await client.connect(a);

      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'hi' }]);
      const sent = clientSide.spans().find((span) => span.name === 'tools/call echo');
      expect(sent).toBeDefined();
      expect(echoed.structuredContent).toEqual({ traceparent: `00-${sent?.spanContext().traceId}-${sent?.spanContext().spanId}-01` });
      expect((await client.callTool({ name: 'broken' })).isError).toBe(true);
      await expect(client.callTool({ name: 'refused' })).rejects.toMatchObject({ code: -32050 });
      await client.close();
      bare.close();
    });
  });
});
