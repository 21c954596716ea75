import { PassThrough, Writable } from 'node:stream';
import { ConnectionClosedError, type TransportCloseInfo, type TransportSink } from '@statemcp/protocol';
import { describe, expect, it, vi } from 'vitest';
import { StdioServerTransport } from './stdio-server-transport.js';

function recordingSink() {
  const messages: unknown[] = [];
  const malformed: Array<{ text: string; reason: string }> = [];
  const closes: TransportCloseInfo[] = [];
  let resolveClosed: (info: TransportCloseInfo) => void = () => undefined;
  const closed = new Promise<TransportCloseInfo>((resolve) => (resolveClosed = resolve));
  let wake: (() => void) | undefined;
  const sink: TransportSink = {
    onMessage: (value) => {
      messages.push(value);
      wake?.();
    },
    onMalformed: (text, reason) => {
      malformed.push({ text, reason });
      wake?.();
    },
    onClose: (info) => {
      closes.push(info);
      resolveClosed(info);
    },
  };
  const until = async (predicate: () => boolean): Promise<void> => {
    while (!predicate()) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { sink, messages, malformed, closes, closed, until };
}

function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const output: string[] = [];
  stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { stdin, stdout, output };
}

describe('StdioServerTransport', () => {
  describe('#start', () => {
    it('delivers parsed messages from stdin, across chunk boundaries', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      const recorder = recordingSink();
      await transport.start(recorder.sink);
      stdin.write('{"jsonrpc":"2.0","id":1,');
      stdin.write('"method":"ping"}\r\n\n');
      await recorder.until(() => recorder.messages.length === 1);
      expect(recorder.messages).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
      await transport.close();
    });

    it('hands malformed lines to onMalformed and keeps going', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      const recorder = recordingSink();
      await transport.start(recorder.sink);
      stdin.write('not json\n{"jsonrpc":"2.0","method":"x"}\n');
      await recorder.until(() => recorder.messages.length === 1);
      expect(recorder.malformed).toHaveLength(1);
      expect(recorder.malformed[0]?.text).toBe('not json');
      expect(recorder.messages).toEqual([{ jsonrpc: '2.0', method: 'x' }]);
      await transport.close();
    });

    it('cannot be started twice', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      await transport.start(recordingSink().sink);
      await expect(transport.start(recordingSink().sink)).rejects.toThrow(/only once/);
      await transport.close();
    });
  });

  describe('#send', () => {
    it('writes one line per message', async () => {
      const { stdin, stdout, output } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      await transport.start(recordingSink().sink);
      await transport.send({ jsonrpc: '2.0', id: 1, result: { text: 'a\nb' } });
      await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
      expect(output.join('')).toBe(
        '{"jsonrpc":"2.0","id":1,"result":{"text":"a\\nb"}}\n{"jsonrpc":"2.0","method":"notifications/message","params":{}}\n',
      );
      await transport.close();
    });

    it('rejects with ConnectionClosedError after close', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      await transport.start(recordingSink().sink);
      await transport.close();
      await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(ConnectionClosedError);
    });

    it('waits for drain when stdout is full, and keeps order', async () => {
      const stdin = new PassThrough();
      const written: string[] = [];
      const held: Array<() => void> = [];
      const stdout = new Writable({
        highWaterMark: 16,
        write(chunk: Buffer, _encoding, callback) {
          written.push(chunk.toString());
          held.push(() => callback());
        },
      });
      const transport = new StdioServerTransport({ stdin, stdout });
      await transport.start(recordingSink().sink);
      // The first frame goes out alone (on the next tick) and fills stdout; the others queue behind it.
      const sends = [transport.send({ jsonrpc: '2.0', id: 0, result: {} })];
      await new Promise<void>((resolve) => process.nextTick(resolve));
      for (let id = 1; id < 5; id++) sends.push(transport.send({ jsonrpc: '2.0', id, result: {} }));
      await Promise.resolve();
      expect(written).toHaveLength(1);
      // Frames held back while stdout was full may leave joined in one write: count lines.
      const lines = () => written.join('').split('\n').filter((line) => line !== '');
      while (lines().length < 5 || held.length > 0) {
        held.shift()?.();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await Promise.all(sends);
      expect(lines().map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([0, 1, 2, 3, 4]);
      await transport.close();
    });
  });

  describe('closing', () => {
    it('closes with initiator remote when stdin ends, delivering a final unterminated line first', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      const recorder = recordingSink();
      await transport.start(recorder.sink);
      stdin.end('{"jsonrpc":"2.0","method":"last"}');
      const info = await recorder.closed;
      expect(info.initiator).toBe('remote');
      expect(recorder.messages).toEqual([{ jsonrpc: '2.0', method: 'last' }]);
      expect(transport.status).toBe('closed');
    });

    it('treats EPIPE on stdout as a remote close, not a crash', async () => {
      const stdin = new PassThrough();
      const stdout = new Writable({
        write(_chunk, _encoding, callback) {
          callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        },
      });
      const transport = new StdioServerTransport({ stdin, stdout });
      const recorder = recordingSink();
      await transport.start(recorder.sink);
      await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(ConnectionClosedError);
      const info = await recorder.closed;
      expect(info.initiator).toBe('remote');
      expect(info.error).toBeUndefined();
    });

    it('calls onClose exactly once however often it is closed', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      const recorder = recordingSink();
      await transport.start(recorder.sink);
      await Promise.all([transport.close(), transport.close()]);
      stdin.end();
      await transport.close();
      expect(recorder.closes).toEqual([{ initiator: 'local' }]);
    });

    it('ends a stdout stream passed in the options on close', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout });
      await transport.start(recordingSink().sink);
      await transport.close();
      expect(stdout.writableEnded).toBe(true);
    });

    it('closes with MessageTooLargeError when a line exceeds maxMessageSize', async () => {
      const { stdin, stdout } = streams();
      const transport = new StdioServerTransport({ stdin, stdout, maxMessageSize: 32 });
      const recorder = recordingSink();
      await transport.start(recorder.sink);
      stdin.write(`{"jsonrpc":"2.0","method":"${'x'.repeat(64)}"}\n`);
      const info = await recorder.closed;
      expect(info.initiator).toBe('error');
      expect(info.error?.name).toBe('MessageTooLargeError');
    });

    it('exits the process after the exit delay when exitOnClose is set', async () => {
      const { stdin, stdout } = streams();
      let resolveExit: (code: unknown) => void = () => undefined;
      const exited = new Promise((resolve) => (resolveExit = resolve));
      const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
        resolveExit(code);
        return undefined as never;
      }) as typeof process.exit);
      try {
        const transport = new StdioServerTransport({ stdin, stdout, exitOnClose: true, exitDelayMs: 0 });
        const recorder = recordingSink();
        await transport.start(recorder.sink);
        stdin.end();
        expect((await recorder.closed).initiator).toBe('remote');
        expect(await exited).toBeUndefined();
        expect(exit).toHaveBeenCalledTimes(1);
      } finally {
        exit.mockRestore();
      }
    });
  });
});
