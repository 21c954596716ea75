/**
 * Middleware: one function around every request and notification, on both sides. This server
 * audits every request, rate-limits tool calls per principal, refuses a tool to anonymous
 * callers (a short-circuit with a typed error), answers a cached call without reaching its
 * handler, and times the rest. The same chain runs in memory, over stdio and over HTTP, in
 * both eras. Run it over stdio: `node --import tsx src/observability/middleware.ts --stdio`.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError } from '@statemcp/protocol';
import { McpServer, auditLog, rateLimit, type AuditRecord } from '@statemcp/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { z } from 'zod';

/** What the middleware saw, readable through the `middleware_log` tool (for the tests). */
export interface MiddlewareTrail {
  readonly audit: AuditRecord[];
  readonly cancelled: string[];
}

export function createServer(trail: MiddlewareTrail = { audit: [], cancelled: [] }): McpServer {
  const server = new McpServer({ name: 'middleware-example', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('admin_reset', { description: 'Needs a signed-in caller' }, () => ({ content: [{ type: 'text', text: 'reset' }] }));
  server.registerTool('slow', { description: 'Reports progress, then runs until cancelled' }, async (_args, extra) => {
    await extra.sendProgress(1);
    return new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'too late' }] }), { once: true }));
  });
  server.registerTool('middleware_log', {}, () => ({ content: [{ type: 'text', text: JSON.stringify(trail) }] }));
  server.server.method('com.example/stats', { result: z.object({ calls: z.number() }) }, () => ({ calls: trail.audit.length }));

  // 1. Outermost: one audit record per request, whatever happens inside.
  server.use(auditLog((record) => trail.audit.push(record)));
  // 2. Ten tool calls at once per principal, five more per second.
  server.use('tools/call', rateLimit({ capacity: 10, refillPerSecond: 5 }));
  // 3. Short-circuit with a typed error: the handler never runs.
  server.use('tools/call', (context, next) => {
    if (context.params.name === 'admin_reset' && context.authInfo === undefined) throw new JsonRpcError(-32001, 'admin_reset needs a signed-in caller');
    return next();
  });
  // 4. Short-circuit with a result: a cached answer.
  server.use('tools/call', (context, next) => {
    const args = context.params.arguments as { text?: unknown } | undefined;
    if (context.params.name === 'echo' && args?.text === 'cached') return { content: [{ type: 'text', text: 'from the cache' }] };
    return next();
  });
  // 5. A middleware sees its request's cancellation: the signal aborts, and no answer is sent.
  server.use('tools/call', (context, next) => {
    if (context.kind === 'request' && context.params.name === 'slow') {
      context.signal.addEventListener('abort', () => trail.cancelled.push(String(context.id)), { once: true });
    }
    return next();
  });
  // 6. A bug in a middleware is a -32603 for that request alone.
  server.use('tools/call', (context, next) => {
    const args = context.params.arguments as { text?: unknown } | undefined;
    if (args?.text === 'crash the middleware') throw new TypeError('a middleware bug');
    return next();
  });
  return server;
}

/** Calls the server in memory and returns what each call got. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const trail: MiddlewareTrail = { audit: [], cancelled: [] };
  const server = createServer(trail);
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'middleware-client', version: '1.0.0' });
  // The client has middleware too: here it logs every call it makes.
  client.use('tools/call', (context, next) => {
    log(`client: calling ${String(context.params.name)}`);
    return next();
  });
  await client.connect(clientSide);
  for (const text of ['hello', 'cached', 'crash the middleware']) {
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text } });
      log(`echo ${text}: ${JSON.stringify(result.content[0])}`);
    } catch (error) {
      log(`echo ${text}: ${error instanceof JsonRpcError ? `${error.code} ${error.message}` : String(error)}`);
    }
  }
  await client.callTool({ name: 'admin_reset' }).catch((error: unknown) => log(`admin_reset: ${error instanceof JsonRpcError ? `${error.code} ${error.message}` : String(error)}`));
  log(`audit: ${trail.audit.map((record) => [record.method, record.target, record.outcome].filter(Boolean).join(' ')).join('; ')}`);
  await client.close();
  await server.close();
}

if (process.argv.includes('--stdio')) {
  await createServer().connect(new StdioServerTransport());
}
