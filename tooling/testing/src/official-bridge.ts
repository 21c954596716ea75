/**
 * A bridge between a statemcp {@link Transport} and the official MCP SDK's Transport shape
 * (`start()`, `send()`, `close()`, `onmessage`, `onclose`, `onerror`), so that interop tests
 * can connect our client or server to the official SDK's server or client in one process.
 * Messages are delivered asynchronously and cloned, like the in-memory pair.
 */
import { ConnectionClosedError, type JsonRpcMessage, type Transport, type TransportSink } from '@statemcp/protocol';

/** The structural shape of the official SDK's Transport (1.x and 2.x agree on it). */
export interface OfficialTransportLike {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
  // `any`: the official SDK assigns a handler typed with its own message type here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

class OurSide implements Transport {
  sink: TransportSink | undefined;
  backlog: unknown[] = [];
  closed = false;
  peer!: TheirSide;

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    const backlog = this.backlog;
    this.backlog = [];
    for (const value of backlog) queueMicrotask(() => this.sink?.onMessage(value));
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new ConnectionClosedError('bridge closed');
    const copy = structuredClone(message);
    queueMicrotask(() => {
      if (!this.peer.closed) this.peer.onmessage?.(copy);
    });
  }

  deliver(value: unknown): void {
    if (this.sink === undefined) this.backlog.push(value);
    else queueMicrotask(() => this.sink?.onMessage(value));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    queueMicrotask(() => {
      this.sink?.onClose({ initiator: 'local' });
      this.peer.remoteClosed();
    });
  }

  remoteClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink?.onClose({ initiator: 'remote' });
  }
}

class TheirSide implements OfficialTransportLike {
  // `any`: the official SDK assigns a handler typed with its own message type here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onmessage?: ((message: any, extra?: any) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  closed = false;
  peer!: OurSide;

  async start(): Promise<void> {}

  async send(message: unknown): Promise<void> {
    if (this.closed) throw new Error('bridge closed');
    this.peer.deliver(structuredClone(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    queueMicrotask(() => {
      this.onclose?.();
      this.peer.remoteClosed();
    });
  }

  remoteClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * Creates a connected pair: `ours` for a statemcp Session/Client/Server, `theirs` for the
 * official SDK's `Client.connect()` / `McpServer.connect()`.
 *
 * @example
 * ```ts
 * const { ours, theirs } = createOfficialBridge();
 * await ourServer.connect(ours);
 * await officialClient.connect(theirs);
 * ```
 */
export function createOfficialBridge(): { ours: Transport; theirs: OfficialTransportLike } {
  const ours = new OurSide();
  const theirs = new TheirSide();
  ours.peer = theirs;
  theirs.peer = ours;
  return { ours, theirs };
}
