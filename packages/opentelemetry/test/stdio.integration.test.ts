/**
 * OpenTelemetry across real stdio: the server is a child process recording its spans with the
 * real SDK (written to stderr), the client records here. In both eras the server's span is the
 * child of the client's: the trace context crossed the pipe in `_meta`.
 */
import { fileURLToPath } from 'node:url';
import { SpanKind } from '@opentelemetry/api';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';
import { afterEach, describe, expect, it } from 'vitest';
import { McpTelemetry } from '../src/index.js';
import { recorder } from './support.js';

interface ChildSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes: Record<string, unknown>;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The child's spans as they arrive, and a wait for the first one matching. */
function childSpans() {
  const spans: ChildSpan[] = [];
  const waiting: { readonly match: (span: ChildSpan) => boolean; readonly resolve: (span: ChildSpan) => void }[] = [];
  let buffered = '';
  const onStderr = (chunk: Buffer): void => {
    buffered += chunk.toString('utf8');
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      if (!line.startsWith('span ')) continue;
      const span = JSON.parse(line.slice(5)) as ChildSpan;
      spans.push(span);
      for (const waiter of waiting.filter((w) => w.match(span))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(span);
      }
    }
  };
  const next = (match: (span: ChildSpan) => boolean): Promise<ChildSpan> => {
    const found = spans.find(match);
    return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ match, resolve }));
  };
  return { onStderr, next };
}

describe('McpTelemetry over stdio', () => {
  it.each(['legacy', 'auto'] as const)('parents the child server span with the client span (era %s)', async (era) => {
    const fromChild = childSpans();
    const script = await bundleNodeScript(fileURLToPath(new URL('./fixtures/traced-stdio-server.ts', import.meta.url)));
    const transport = new StdioClientTransport({ command: process.execPath, args: [script], onStderr: fromChild.onStderr });
    const clientSide = recorder('client');
    const client = new Client({ name: 'traced-stdio-client', version: '1.0.0' }, { era });
    client.use(new McpTelemetry({ side: 'client', tracer: clientSide.tracer, meter: clientSide.meter, network: { transport: 'pipe' } }).middleware);
    closers.push(() => client.close());
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { text: 'through the pipe' } });

    const clientSpan = clientSide.spans().find((span) => span.name === 'tools/call echo');
    const serverSpan = await fromChild.next((span) => span.name === 'tools/call echo');
    expect(serverSpan.kind).toBe(SpanKind.SERVER);
    expect(serverSpan.traceId).toBe(clientSpan?.spanContext().traceId);
    expect(serverSpan.parentSpanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan.attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'mcp.protocol.version': client.protocolVersion });
  });
});
