import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError, SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../index.js';
import { consoleSink, createServerLogging, pinoSink, type LogSink, type PinoLike } from './index.js';

interface Line {
  readonly level: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

function recordingSink(): LogSink & { lines: Line[] } {
  const lines: Line[] = [];
  return { lines, log: (level, fields, message) => lines.push({ level, message, fields }) };
}

async function setup(era: 'legacy' | 'auto') {
  const sink = recordingSink();
  const clock = new SimulatedClock();
  const logging = createServerLogging({ sink, level: 'debug', name: 'weather', clock });
  const server = new McpServer({ name: 'logged', version: '1.0.0' });
  server.use(logging.middleware);
  server.registerTool('forecast', {}, async (_args, extra) => {
    const log = logging.forRequest(extra);
    await log.info('looking up', { city: 'Lisbon' });
    await log.warning('the station is stale');
    return { content: [{ type: 'text', text: 'Sunny' }] };
  });
  server.registerTool('refuse', {}, () => {
    throw new JsonRpcError(-32602, 'Unknown city');
  });
  server.registerTool('crash', {}, () => {
    throw new Error('database down');
  });
  server.server.method('com.example/crash', {}, () => {
    throw new Error('database down');
  });
  const [a, b] = InMemoryTransport.createPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1.0.0' }, { era });
  const received: { level: string; data: unknown; logger?: string }[] = [];
  client.onLoggingMessage((message) => received.push(message));
  await client.connect(a);
  return { sink, logging, server, client, received };
}

describe('createServerLogging', () => {
  describe('#middleware', () => {
    it('logs the connection, each request with its duration and principal, and errors with category and code', async () => {
      const { sink, client, server, logging } = await setup('legacy');
      await client.callTool({ name: 'forecast' });
      await client.callTool({ name: 'refuse' }).catch(() => undefined);
      await client.callTool({ name: 'crash' });
      await client.request('com.example/crash', {}).catch(() => undefined);
      await client.close();
      await server.close();
      const messages = sink.lines.map((line) => `${line.level} ${line.message}`);
      expect(messages[0]).toBe('info connection opened');
      expect(sink.lines.find((line) => line.message === 'request completed' && line.fields.target === 'forecast')).toMatchObject({ level: 'info', fields: { method: 'tools/call', durationMs: 0 } });
      expect(sink.lines.find((line) => line.fields.target === 'refuse')).toMatchObject({ level: 'warning', message: 'request failed', fields: { code: -32602, category: 'invalid-request' } });
      expect(sink.lines.find((line) => line.fields.target === 'crash')).toMatchObject({ level: 'warning', message: 'tool reported an error' });
      expect(sink.lines.find((line) => line.fields.method === 'com.example/crash')).toMatchObject({ level: 'error', message: 'request failed', fields: { code: -32603, category: 'handler', error: 'database down' } });
      expect(messages).toContain('info connection closed');
      expect(String(sink.lines.find((line) => line.fields.target === 'forecast')?.fields.principal)).toMatch(/^session:/);
      logging.close();
    });
  });

  describe('#forRequest', () => {
    it('legacy era: sends notifications/message at the level set with logging/setLevel, and logs everything to the sink', async () => {
      const { sink, client, received } = await setup('legacy');
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'forecast' });
      expect(received).toEqual([{ level: 'warning', logger: 'weather', data: { message: 'the station is stale' } }]);
      expect(sink.lines.filter((line) => line.fields.requestId !== undefined).map((line) => line.message)).toEqual(['looking up', 'the station is stale']);
      await client.close();
    });

    it('2026-07-28: sends only what the request asked for in _meta, nothing without it', async () => {
      const { client, received } = await setup('auto');
      expect(client.era).toBe('modern');
      await client.callTool({ name: 'forecast' });
      expect(received).toEqual([]);
      await client.callTool({ name: 'forecast', _meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
      expect(received.map((message) => message.level)).toEqual(['info', 'warning']);
      expect(received[0]?.data).toEqual({ message: 'looking up', city: 'Lisbon' });
      await client.close();
    });
  });
});

describe('pinoSink', () => {
  it('maps the MCP levels onto pino methods and keeps the MCP level', () => {
    const calls: string[] = [];
    const fake = Object.fromEntries(['debug', 'info', 'warn', 'error', 'fatal'].map((method) => [method, (fields: object, message: string) => calls.push(`${method} ${message} ${JSON.stringify(fields)}`)])) as unknown as PinoLike;
    const sink = pinoSink(fake);
    sink.log('notice', { a: 1 }, 'n');
    sink.log('warning', {}, 'w');
    sink.log('critical', {}, 'c');
    expect(calls).toEqual(['info n {"a":1,"mcpLevel":"notice"}', 'warn w {"mcpLevel":"warning"}', 'fatal c {"mcpLevel":"critical"}']);
  });
});

describe('consoleSink', () => {
  it('writes one JSON line per entry', () => {
    const lines: string[] = [];
    consoleSink((line) => lines.push(line)).log('info', { method: 'tools/call' }, 'request completed');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ level: 'info', message: 'request completed', method: 'tools/call' }]);
  });
});
