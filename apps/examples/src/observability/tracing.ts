/**
 * Tracing to an OTLP collector: one `McpTelemetry` middleware on each side, an OpenTelemetry
 * SDK exporting over OTLP/HTTP. The client's span goes out in the request's `_meta`, so the
 * server's span joins the same trace whatever the transport. Here a stand-in collector on
 * 127.0.0.1 receives the spans; point `endpoint` at yours (`http://collector:4318/v1/traces`).
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@statemcp/client';
import { McpTelemetry } from '@statemcp/opentelemetry';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

export async function main(log: (line: string) => void = console.log, endpoint?: string): Promise<void> {
  const collector = endpoint === undefined ? await standInCollector(log) : undefined;
  const url = endpoint ?? collector?.url ?? 'http://127.0.0.1:4318/v1/traces';
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))] });

  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  // Register it first: its span then covers every other middleware and the handler.
  server.use(new McpTelemetry({ side: 'server', tracer: provider.getTracer('weather-server') }).middleware);
  server.registerTool('forecast', { inputSchema: { city: z.string() } }, ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }));

  const client = new Client({ name: 'planner', version: '1.0.0' });
  client.use(new McpTelemetry({ side: 'client', tracer: provider.getTracer('planner') }).middleware);
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  await client.callTool({ name: 'forecast', arguments: { city: 'Lisbon' } });
  await client.close();

  await provider.forceFlush(); // a real process flushes on shutdown: provider.shutdown()
  await provider.shutdown();
  await collector?.close();
}

/** Stands in for an OpenTelemetry Collector's OTLP/HTTP receiver: logs each span it gets. */
async function standInCollector(log: (line: string) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces;
      const spans = (body.resourceSpans ?? []).flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []));
      for (const span of spans) log(`collector: ${span.name} trace ${span.traceId.slice(0, 8)}… ${span.parentSpanId === undefined || span.parentSpanId === '' ? 'root' : 'child'}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

/** The part of an OTLP/HTTP JSON trace export the stand-in reads. */
interface OtlpTraces {
  resourceSpans?: { scopeSpans?: { spans?: { name: string; traceId: string; parentSpanId?: string }[] }[] }[];
}
