/**
 * Test helper: a hand-driven server end of an in-memory pair. It answers `initialize` with
 * a chosen version and capabilities, records everything it receives, and lets a test send
 * any raw message — late responses, stray progress, requests a revision does not have.
 */
import { InMemoryTransport, type JsonObject, type JsonRpcMessage } from '@statemcp/protocol';
import { flush } from './peer.js';

export interface ScriptedOptions {
  /** The version to answer `initialize` with (default: the one proposed). */
  readonly version?: string;
  readonly capabilities?: JsonObject;
  /** Never answer `initialize` (the handshake stays in flight). */
  readonly holdInitialize?: boolean;
  /**
   * Answer requests by method; return undefined to leave a request unanswered (`server/discover`
   * left unanswered gets -32601, like a legacy server's).
   */
  readonly answer?: (method: string, params: JsonObject, id: string | number) => JsonObject | undefined;
}

export interface ReceivedMessage {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: JsonObject;
  readonly result?: JsonObject;
  readonly error?: { code: number; message: string; data?: unknown };
}

export async function createScriptedServer(options: ScriptedOptions = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  const received: ReceivedMessage[] = [];
  const send = (message: JsonRpcMessage | JsonObject) => serverSide.send(message as JsonRpcMessage);
  await serverSide.start({
    onMessage(value) {
      const message = value as ReceivedMessage;
      received.push(message);
      if (message.method === undefined || message.id === undefined) return;
      if (message.method === 'initialize') {
        if (options.holdInitialize === true) return;
        const proposed = String(message.params?.protocolVersion);
        void send({
          jsonrpc: '2.0',
          id: message.id,
          result: { protocolVersion: options.version ?? proposed, capabilities: options.capabilities ?? { tools: {} }, serverInfo: { name: 'scripted', version: '1' } },
        });
        return;
      }
      const result = options.answer?.(message.method, message.params ?? {}, message.id);
      if (result !== undefined) void send({ jsonrpc: '2.0', id: message.id, result });
      // A legacy server does not know the modern era's discovery: it answers -32601, as real ones do.
      else if (message.method === 'server/discover') void send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    },
    onClose() {},
  });
  return {
    clientSide,
    serverSide,
    received,
    send,
    /** Requests (with an id) the client sent, by method. */
    requests(method: string): ReceivedMessage[] {
      return received.filter((m) => m.method === method && m.id !== undefined);
    },
    /** Notifications the client sent, by method. */
    notifications(method: string): ReceivedMessage[] {
      return received.filter((m) => m.method === method && m.id === undefined);
    },
    /** Responses the client sent to this server's requests. */
    responses(): ReceivedMessage[] {
      return received.filter((m) => m.method === undefined);
    },
    flush,
  };
}
