import { describe, expect, it } from 'vitest';
import { ConnectionClosedError, InvalidStateError } from '../errors/errors.js';
import { ErrorCode, type JsonObject, type JsonRpcMessage } from '../jsonrpc/messages.js';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '../revisions/blocks/modern.js';
import type { SendOptions, Transport, TransportSink } from '../transport/transport.js';
import { MiddlewareStack } from './middleware.js';
import type { HandlerLookup, RequestHandler, SessionOptions } from './options.js';
import { StatelessDispatcher } from './stateless-dispatcher.js';
import { flush } from './test-support.js';

const MODERN = '2026-07-28';

/** One exchange of a stateless HTTP POST, as the server's transport shows it: what was written, and the client going away. */
class ExchangeTransport implements Transport {
  readonly singleExchange: boolean;
  readonly written: Array<{ message: JsonRpcMessage; related: unknown }> = [];
  sink: TransportSink | undefined;

  constructor(
    readonly assumedProtocolVersion: string | undefined,
    single = true,
  ) {
    this.singleExchange = single;
  }

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.written.push({ message, related: options?.relatedRequestId });
  }

  async close(): Promise<void> {
    this.sink?.onClose({ initiator: 'local' });
  }

  clientGone(): void {
    this.sink?.onClose({ initiator: 'remote' });
  }
}

function meta(version = MODERN): JsonObject {
  return { [PROTOCOL_VERSION_META_KEY]: version, [CLIENT_CAPABILITIES_META_KEY]: {} };
}

function handlersOf(table: Record<string, RequestHandler>): HandlerLookup {
  return { requestHandler: (method) => table[method], notificationHandler: () => undefined };
}

function dispatcherWith(table: Record<string, RequestHandler>, extra: Partial<SessionOptions> = {}): StatelessDispatcher {
  return new StatelessDispatcher({ role: 'server', capabilities: () => ({ tools: {} }), handlers: handlersOf(table), ...extra });
}

async function serve(dispatcher: StatelessDispatcher, message: JsonObject): Promise<ExchangeTransport> {
  const transport = new ExchangeTransport(MODERN);
  await dispatcher.connect(transport);
  transport.sink?.onMessage(message);
  await flush();
  return transport;
}

describe('StatelessDispatcher', () => {
  describe('#serves', () => {
    it('takes a single-exchange transport at a stateless version it serves, and nothing else', () => {
      const dispatcher = dispatcherWith({});
      expect(dispatcher.serves(new ExchangeTransport(MODERN))).toBe(true);
      expect(dispatcher.serves(new ExchangeTransport(MODERN, false))).toBe(false);
      expect(dispatcher.serves(new ExchangeTransport('2025-11-25'))).toBe(false);
      expect(dispatcher.serves(new ExchangeTransport(undefined))).toBe(false);
      expect(new StatelessDispatcher({ role: 'server', capabilities: () => ({}), supportedVersions: ['2025-11-25'] }).serves(new ExchangeTransport(MODERN))).toBe(false);
    });

    it('refuses to build an exchange for a transport it does not serve', () => {
      expect(() => dispatcherWith({}).exchange(new ExchangeTransport('2025-11-25'))).toThrow(InvalidStateError);
    });
  });

  describe('#connect', () => {
    it('answers a request through its handler with a complete result related to it', async () => {
      const transport = await serve(dispatcherWith({ 'tools/list': () => ({ tools: [] }) }), { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
      expect(transport.written).toEqual([{ message: { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [] } }, related: 1 }]);
    });

    it('applies the modern request rule: initialize is -32601, an unserved version -32022', async () => {
      const dispatcher = dispatcherWith({ 'tools/list': () => ({ tools: [] }) });
      const initialize = await serve(dispatcher, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
      expect(initialize.written[0]?.message).toMatchObject({ id: 1, error: { code: ErrorCode.MethodNotFound } });
      const unserved = await serve(dispatcher, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta('2099-01-01') } });
      expect(unserved.written[0]?.message).toMatchObject({ id: 2, error: { code: ErrorCode.UnsupportedProtocolVersion, data: { requested: '2099-01-01' } } });
    });

    it('applies the method policy and params validation as a session does', async () => {
      const dispatcher = dispatcherWith({ 'tools/call': () => ({ content: [] }) }, { capabilities: () => ({}) });
      const undeclared = await serve(dispatcher, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: meta() } });
      expect(undeclared.written[0]?.message).toMatchObject({ error: { code: ErrorCode.MethodNotFound, message: expect.stringContaining('capability') } });
      const invalid = await serve(dispatcherWith({ 'tools/call': () => ({ content: [] }) }), { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 7, _meta: meta() } });
      expect(invalid.written[0]?.message).toMatchObject({ error: { code: ErrorCode.InvalidParams } });
    });

    it('writes progress related to the request before its result, through the middleware', async () => {
      const seen: string[] = [];
      const middleware = new MiddlewareStack();
      middleware.use(async (context, next) => {
        seen.push(`${context.kind}:${context.method}`);
        return next();
      });
      const dispatcher = dispatcherWith(
        {
          'tools/call': async (_params, context) => {
            await context.sendProgress(1, 2);
            return { content: [] };
          },
        },
        { middleware },
      );
      const transport = await serve(dispatcher, { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', _meta: { ...meta(), progressToken: 't' } } });
      expect(transport.written.map(({ message, related }) => ['method' in message ? message.method : 'result', related])).toEqual([
        ['notifications/progress', 'a'],
        ['result', 'a'],
      ]);
      expect(seen).toEqual(['request:tools/call', 'notification:notifications/progress']);
    });

    it("aborts the handler's signal and writes nothing when the client goes away", async () => {
      let signal: AbortSignal | undefined;
      let finish: (() => void) | undefined;
      const dispatcher = dispatcherWith({
        'tools/call': async (_params, context) => {
          signal = context.signal;
          await new Promise<void>((resolve) => (finish = resolve));
          return { content: [] };
        },
      });
      const transport = await serve(dispatcher, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: meta() } });
      transport.clientGone();
      expect(signal?.aborted).toBe(true);
      expect(signal?.reason).toBeInstanceOf(ConnectionClosedError);
      finish?.();
      await flush();
      expect(transport.written).toEqual([]);
    });

    it('refuses requests of its own: a server sends none in the stateless era', async () => {
      let refusal: unknown;
      const dispatcher = dispatcherWith({
        'tools/call': async (_params, context) => {
          refusal = await context.sendRequest('roots/list').catch((error: unknown) => error);
          return { content: [] };
        },
      });
      await serve(dispatcher, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: meta() } });
      expect(refusal).toBeInstanceOf(InvalidStateError);
    });
  });

  describe('StatelessExchange', () => {
    it('stands for an Operating connection until the exchange ends', async () => {
      const transport = new ExchangeTransport(MODERN);
      const exchange = dispatcherWith({}).exchange(transport);
      await transport.start(exchange);
      expect(exchange.connectionState()).toMatchObject({ kind: 'operating', version: MODERN });
      const closed = exchange.closed;
      await exchange.close();
      await expect(closed).resolves.toEqual({ reason: 'closed' });
      expect(exchange.connectionState().kind).toBe('terminated');
      await expect(exchange.notify('notifications/message', { level: 'info', data: 1 })).rejects.toBeInstanceOf(ConnectionClosedError);
    });
  });
});
