/**
 * OpenTelemetry across real HTTP on 127.0.0.1, with the real SDK recording in memory: a
 * statemcp client calling a statemcp server makes one trace whose client span parents the
 * server span (through `_meta`, not an HTTP header); the official SDK's client, which puts a
 * `traceparent` in `_meta` itself, gets server spans parented from it. Every attribute and
 * metric name recorded is checked against `@opentelemetry/semantic-conventions`.
 */
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SpanKind } from '@opentelemetry/api';
import * as stable from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { Client } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EXECUTE_TOOL, MCP_ATTRIBUTES, MCP_METRICS, McpTelemetry } from '../src/index.js';
import { recorder, type Recorded } from './support.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function tracedServer(recorded: Recorded): Promise<URL> {
  const server = new McpServer({ name: 'traced-http', version: '1.0.0' });
  const telemetry = new McpTelemetry({ side: 'server', tracer: recorded.tracer, meter: recorded.meter });
  server.use(telemetry.middleware);
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
  const http = await mcp.listen({ port: 0 });
  closers.push(async () => {
    await http.close();
    await server.close();
    telemetry.close();
  });
  return http.url;
}

/** Every `ATTR_*` value of the conventions, stable and incubating. */
function conventionNames(prefix: 'ATTR_' | 'METRIC_'): Set<string> {
  const names = new Set<string>();
  for (const module of [stable, incubating] as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(module)) if (key.startsWith(prefix) && typeof value === 'string') names.add(value);
  }
  return names;
}

describe('McpTelemetry over HTTP', () => {
  it('makes one trace: the statemcp client span parents the statemcp server span', async () => {
    const serverSide = recorder('server');
    const clientSide = recorder('client');
    const url = await tracedServer(serverSide);
    const telemetry = new McpTelemetry({ side: 'client', tracer: clientSide.tracer, meter: clientSide.meter, network: { serverAddress: url.hostname, serverPort: Number(url.port) } });
    const client = new Client({ name: 'traced-client', version: '1.0.0' }, { era: 'legacy' });
    client.use(telemetry.middleware);
    await client.connect(new StreamableHttpClientTransport(url));
    closers.unshift(async () => {
      await client.close();
      telemetry.close();
    });
    await client.callTool({ name: 'echo', arguments: { text: 'over http' } });

    const clientSpan = clientSide.spans().find((span) => span.name === 'tools/call echo');
    const serverSpan = serverSide.spans().find((span) => span.name === 'tools/call echo');
    expect(clientSpan?.kind).toBe(SpanKind.CLIENT);
    expect(serverSpan?.kind).toBe(SpanKind.SERVER);
    expect(serverSpan?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.attributes).toMatchObject({
      [MCP_ATTRIBUTES.methodName]: 'tools/call',
      [MCP_ATTRIBUTES.toolName]: 'echo',
      [MCP_ATTRIBUTES.operationName]: EXECUTE_TOOL,
      [MCP_ATTRIBUTES.protocolVersion]: client.protocolVersion,
      [MCP_ATTRIBUTES.networkTransport]: 'tcp',
      [MCP_ATTRIBUTES.networkProtocolName]: 'http',
      [MCP_ATTRIBUTES.serverAddress]: '127.0.0.1',
      [MCP_ATTRIBUTES.serverPort]: Number(url.port),
      [MCP_ATTRIBUTES.clientAddress]: '127.0.0.1',
    });
    // The HTTP session (Mcp-Session-Id) is the MCP session.
    expect(typeof serverSpan?.attributes[MCP_ATTRIBUTES.sessionId]).toBe('string');
    expect(clientSpan?.attributes[MCP_ATTRIBUTES.serverPort]).toBe(Number(url.port));
    // One trace for the whole exchange: every server span has a client span of the same trace as its parent.
    const clientIds = new Set(clientSide.spans().map((span) => span.spanContext().spanId));
    for (const span of serverSide.spans().filter((s) => s.kind === SpanKind.SERVER && s.attributes['jsonrpc.request.id'] !== undefined)) {
      expect(clientIds.has(span.parentSpanContext?.spanId ?? '')).toBe(true);
    }

    // Every name recorded is one the conventions define.
    const attributeNames = conventionNames('ATTR_');
    const recordedNames = new Set([...serverSide.spans(), ...clientSide.spans()].flatMap((span) => Object.keys(span.attributes)));
    for (const name of recordedNames) expect(attributeNames, name).toContain(name);
    for (const name of Object.values(MCP_ATTRIBUTES)) expect(attributeNames, name).toContain(name);
    const metricNames = conventionNames('METRIC_');
    for (const name of Object.values(MCP_METRICS)) expect(metricNames, name).toContain(name);
    expect(incubating.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL).toBe(EXECUTE_TOOL);
    const recordedMetrics = [...(await serverSide.metrics()), ...(await clientSide.metrics())].map((metric) => metric.descriptor.name);
    expect(recordedMetrics).toEqual(expect.arrayContaining([MCP_METRICS.serverOperationDuration, MCP_METRICS.clientOperationDuration]));
  });

  it('parents server spans from the trace context the official SDK client puts in _meta', async () => {
    const serverSide = recorder('server');
    const url = await tracedServer(serverSide);
    const client = new SdkClient({ name: 'official', version: '1.0.0' });
    await client.connect(new SdkHttpTransport(url));
    closers.unshift(() => client.close());
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await client.callTool({ name: 'echo', arguments: { text: 'hi' }, _meta: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'vendor=abc' } });
    const serverSpan = serverSide.spans().find((span) => span.name === 'tools/call echo');
    expect(serverSpan?.spanContext().traceId).toBe(traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(parentId);
    expect(serverSpan?.parentSpanContext?.isRemote).toBe(true);
    expect(serverSpan?.parentSpanContext?.traceState?.get('vendor')).toBe('abc');
  });
});
