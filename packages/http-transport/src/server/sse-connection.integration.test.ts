import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SimulatedClock } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { SseConnection } from './sse-connection.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A node:http server whose one route hands its response to `onRequest`; resolves with the client's response. */
async function exchange(onRequest: (res: ServerResponse) => void): Promise<IncomingMessage> {
  server = createServer((_req, res) => onRequest(res));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject).end();
  });
}

async function readAll(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) text += chunk as string;
  return text;
}

describe('SseConnection on node:http', () => {
  describe('#attach', () => {
    it('sends the headers with the events written before it, then the events after it, then ends', async () => {
      const connection = new SseConnection({ headers: { 'mcp-session-id': 's1' }, clock: new SimulatedClock() });
      connection.write('data: early\n\n');
      const res = await exchange((out) => {
        connection.attach(out);
        connection.write('data: late\n\n');
        connection.close();
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(res.headers['mcp-session-id']).toBe('s1');
      expect(await readAll(res)).toBe('data: early\n\ndata: late\n\n');
    });

    it('flushes the headers at once when nothing is written yet (a GET stream)', async () => {
      const connection = new SseConnection({ clock: new SimulatedClock() });
      const res = await exchange((out) => connection.attach(out));
      expect(res.statusCode).toBe(200);
      expect(connection.open).toBe(true);
      connection.close();
      expect(await readAll(res)).toBe('');
    });

    it('holds the headers for a first event on its way and sends them with it (holdHead)', async () => {
      const connection = new SseConnection({ clock: new SimulatedClock() });
      let stored!: () => void;
      connection.holdHead(new Promise<void>((resolve) => (stored = resolve)));
      let written = false;
      const res = await exchange((out) => {
        connection.attach(out);
        // The event store answers later: then the priming event, the answer, the end.
        setTimeout(() => {
          stored();
          written = true;
          connection.write('id: s1:1\ndata: \n\n');
          connection.write('data: answer\n\n');
          connection.close();
        }, 50);
      });
      // The client saw no headers before the first event was written.
      expect(written).toBe(true);
      expect(res.statusCode).toBe(200);
      expect(await readAll(res)).toBe('id: s1:1\ndata: \n\ndata: answer\n\n');
    });

    it('sends the held headers alone when the first event cannot be stored', async () => {
      const connection = new SseConnection({ clock: new SimulatedClock() });
      let failed!: (error: Error) => void;
      connection.holdHead(new Promise<void>((_resolve, reject) => (failed = reject)));
      const res = await exchange((out) => {
        connection.attach(out);
        setImmediate(() => failed(new Error('store unreachable')));
      });
      expect(res.statusCode).toBe(200);
      expect(connection.open).toBe(true);
      connection.close();
      expect(await readAll(res)).toBe('');
    });

    it('ends a connection the server closed before a front door took it', async () => {
      const connection = new SseConnection({ clock: new SimulatedClock() });
      connection.write('data: replayed\n\n');
      connection.close();
      const res = await exchange((out) => connection.attach(out));
      expect(await readAll(res)).toBe('data: replayed\n\n');
    });

    it('reports the client going away once through onCancel, and writes nothing after', async () => {
      const connection = new SseConnection({ clock: new SimulatedClock() });
      let cancels = 0;
      const cancelled = new Promise<void>((resolve) => {
        connection.onCancel = () => {
          cancels++;
          resolve();
        };
      });
      const res = await exchange((out) => connection.attach(out));
      res.destroy();
      await cancelled;
      expect(connection.open).toBe(false);
      expect(connection.write('data: gone\n\n')).toBe(false);
      connection.close();
      expect(cancels).toBe(1);
    });
  });
});
