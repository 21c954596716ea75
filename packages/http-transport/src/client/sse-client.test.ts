import { AuthRequiredError, TransportError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';

import { SseClientTransport } from './sse-client.js';
import { ManualClock, RecordingSink, SseBody, accepted, fakeFetch, settle, status } from '../../test/fake-http.js';

const SSE_URL = 'http://127.0.0.1:9/sse';

describe('SseClientTransport', () => {
  describe('#start', () => {
    it('resolves on the endpoint event and POSTs messages to it', async () => {
      const stream = new SseBody();
      const fake = fakeFetch((request) => {
        if (request.method === 'GET') {
          stream.write(': hello\nevent: endpoint\ndata: /messages?sessionId=1\n\n');
          return stream.response();
        }
        return accepted();
      });
      const sink = new RecordingSink();
      const transport = new SseClientTransport(SSE_URL, { fetch: fake.fetch, clock: new ManualClock() });
      await transport.start(sink);
      expect(transport.endpoint?.href).toBe('http://127.0.0.1:9/messages?sessionId=1');
      expect(fake.requests[0]?.headers.accept).toBe('text/event-stream');
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(fake.requests[1]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/messages?sessionId=1' });
      expect(fake.requests[1]?.headers['content-type']).toBe('application/json');
      stream.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
      stream.write('data: not json\n\n');
      await settle();
      expect(sink.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: {} }]);
      expect(sink.malformed).toHaveLength(1);
      stream.end();
      await settle();
      expect(sink.closes).toEqual([{ initiator: 'remote', details: { reason: 'sse-stream-ended' } }]);
    });

    it('refuses an endpoint on another origin', async () => {
      const stream = new SseBody();
      const fake = fakeFetch(() => {
        stream.write('event: endpoint\ndata: https://evil.example/messages\n\n');
        return stream.response();
      });
      const transport = new SseClientTransport(SSE_URL, { fetch: fake.fetch, clock: new ManualClock() });
      await expect(transport.start(new RecordingSink())).rejects.toThrow(/origin/);
    });

    it('times out when no endpoint event arrives', async () => {
      const stream = new SseBody();
      const clock = new ManualClock();
      const fake = fakeFetch(() => stream.response());
      const transport = new SseClientTransport(SSE_URL, { fetch: fake.fetch, clock, endpointTimeoutMs: 50 });
      const starting = transport.start(new RecordingSink());
      await settle();
      clock.fire(50);
      await expect(starting).rejects.toBeInstanceOf(TransportError);
    });

    it('maps 401 to AuthRequiredError', async () => {
      const fake = fakeFetch(() => status(401));
      const transport = new SseClientTransport(SSE_URL, { fetch: fake.fetch });
      await expect(transport.start(new RecordingSink())).rejects.toBeInstanceOf(AuthRequiredError);
    });
  });
});
