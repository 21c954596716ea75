import { describe, expect, it } from 'vitest';
import { ConnectionClosedError } from '../errors/errors.js';
import { InMemoryTransport } from './in-memory.js';
import { fromOfficialTransport, toOfficialTransport, type OfficialSendOptions, type OfficialTransport } from './official-transport.js';
import type { InboundContext, TransportCloseInfo, TransportSink } from './transport.js';

/** An official-shaped transport that records what it is asked to do. */
class RecordingOfficial implements OfficialTransport {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId: string | undefined;
  readonly sent: { message: unknown; options: OfficialSendOptions | undefined }[] = [];
  readonly versions: string[] = [];
  starts = 0;
  callsOncloseOnClose = true;

  async start(): Promise<void> {
    this.starts += 1;
  }
  async send(message: unknown, options?: OfficialSendOptions): Promise<void> {
    this.sent.push({ message, options });
  }
  async close(): Promise<void> {
    if (this.callsOncloseOnClose) this.onclose?.();
  }
  setProtocolVersion(version: string): void {
    this.versions.push(version);
  }
}

function recordingSink(): TransportSink & { messages: [unknown, InboundContext | undefined][]; closes: TransportCloseInfo[]; errors: Error[] } {
  const messages: [unknown, InboundContext | undefined][] = [];
  const closes: TransportCloseInfo[] = [];
  const errors: Error[] = [];
  return {
    messages,
    closes,
    errors,
    onMessage: (value, context) => messages.push([value, context]),
    onError: (error) => errors.push(error),
    onClose: (info) => closes.push(info),
  };
}

const ping = { jsonrpc: '2.0' as const, id: 1, method: 'ping' };

describe('fromOfficialTransport', () => {
  it('starts the official transport once, and carries messages, extras, session id and version both ways', async () => {
    const official = new RecordingOfficial();
    const transport = fromOfficialTransport(official, { answersUntilClosed: true });
    const sink = recordingSink();
    await transport.start(sink);
    await expect(transport.start(sink)).rejects.toThrow(/already started/);
    expect(official.starts).toBe(1);
    expect(transport.answersUntilClosed).toBe(true);

    official.sessionId = 'session-1';
    official.onmessage?.(ping, { authInfo: { token: 't' }, requestInfo: { headers: { 'X-Trace': ['a', 'b'], accept: 'text/event-stream' } } });
    official.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(sink.messages).toEqual([
      [ping, { authInfo: { token: 't' }, headers: { 'x-trace': 'a, b', accept: 'text/event-stream' }, sessionId: 'session-1' }],
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId: 'session-1' }],
    ]);
    expect(transport.sessionId).toBe('session-1');

    await transport.send({ jsonrpc: '2.0', id: 1, result: {} }, { relatedRequestId: 1 });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
    expect(official.sent.map((entry) => entry.options)).toEqual([{ relatedRequestId: 1 }, undefined]);
    transport.setProtocolVersion?.('2025-11-25');
    expect(official.versions).toEqual(['2025-11-25']);

    official.onerror?.(new Error('a non-fatal problem'));
    expect(sink.errors.map((error) => error.message)).toEqual(['a non-fatal problem']);
  });

  it('reports a local close exactly once, even when the official transport never calls onclose', async () => {
    const official = new RecordingOfficial();
    official.callsOncloseOnClose = false;
    const transport = fromOfficialTransport(official);
    const sink = recordingSink();
    await transport.start(sink);
    await transport.close();
    await transport.close();
    official.onclose?.();
    expect(sink.closes).toEqual([{ initiator: 'local' }]);
    await expect(transport.send(ping)).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('reports the peer going away as a remote close, and drops what arrives after it', async () => {
    const official = new RecordingOfficial();
    const transport = fromOfficialTransport(official);
    const sink = recordingSink();
    await transport.start(sink);
    official.onclose?.();
    official.onmessage?.(ping);
    await transport.close();
    expect(sink.closes).toEqual([{ initiator: 'remote' }]);
    expect(sink.messages).toEqual([]);
  });

  it('reports a failing close as an error close', async () => {
    const official = new RecordingOfficial();
    official.close = () => Promise.reject(new Error('kill failed'));
    const transport = fromOfficialTransport(official);
    const sink = recordingSink();
    await transport.start(sink);
    await transport.close();
    expect(sink.closes).toMatchObject([{ initiator: 'error', error: { message: 'kill failed' } }]);
  });
});

describe('toOfficialTransport', () => {
  it('hands batches over one message at a time, garbage to onerror, and the HTTP request as requestInfo', async () => {
    const [peer, ours] = InMemoryTransport.createPair();
    peer.context = { authInfo: { token: 't' }, http: { method: 'POST', url: 'https://example.test/mcp', headers: { 'x-a': '1' }, remoteAddress: undefined } };
    const official = toOfficialTransport(ours);
    const received: [unknown, unknown][] = [];
    const errors: string[] = [];
    official.onmessage = (message, extra) => received.push([message, extra]);
    official.onerror = (error) => errors.push(error.message);
    await official.start();
    await expect(official.start()).rejects.toThrow(/already started/);
    await peer.send([ping, { jsonrpc: '2.0', method: 'notifications/initialized' }] as never);
    ours.injectRaw(42);
    ours.injectMalformed('{oops');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(received.map(([message]) => message)).toEqual([ping, { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(received[0]?.[1]).toEqual({ authInfo: { token: 't' }, requestInfo: { headers: { 'x-a': '1' }, url: new URL('https://example.test/mcp') } });
    expect(errors).toEqual(['not a JSON-RPC 2.0 message: 42', 'a frame that is not JSON: Unexpected token']);
  });

  it('sends through the statemcp transport and closes once on either side', async () => {
    const [peer, ours] = InMemoryTransport.createPair();
    const seen: unknown[] = [];
    const peerCloses: TransportCloseInfo[] = [];
    await peer.start({ onMessage: (value) => seen.push(value), onClose: (info) => peerCloses.push(info) });
    const official = toOfficialTransport(ours);
    let closes = 0;
    official.onclose = () => (closes += 1);
    await official.start();
    await official.send(ping, { relatedRequestId: 7 });
    await official.close();
    await official.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([ping]);
    expect(closes).toBe(1);
    expect(peerCloses).toEqual([{ initiator: 'remote' }]);
  });
});
