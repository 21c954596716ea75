/**
 * What is left of a Multi Round-Trip attempt once it has ended with an `InputRequiredResult`:
 * nothing. The handler's signal is aborted with a clear reason and its unanswered input requests
 * reject, so a client that never retries leaves no handler suspended and no timer behind; and a
 * `requestState` is bound to the authorization principal of the request that got it.
 */
import { InMemoryTransport, RequestCancelledError, SimulatedClock, type AuthInfo, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from './index.js';
import type { ServerConnection } from './server-connection.js';
import { flush } from './test-harness.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } } } as const;

/** Waits `ms` on `clock`, or rejects with the signal's reason (clearing its timer) once it aborts. */
function sleep(clock: SimulatedClock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clock.clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/** A raw 2026-07-28 peer; `as` sets the authorization principal its next requests arrive with. */
async function modernPeer(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const received: JsonObject[] = [];
  const waiting = new Map<unknown, (message: JsonObject) => void>();
  await clientTransport.start({
    onMessage: (value) => {
      const message = value as JsonObject;
      received.push(message);
      waiting.get(message.id)?.(message);
    },
    onClose: () => undefined,
  });
  const connection: ServerConnection = await server.connect(serverTransport);
  let next = 1;
  const call = async (method: string, params: JsonObject): Promise<JsonObject> => {
    const id = next++;
    const response = new Promise<JsonObject>((resolve) => waiting.set(id, resolve));
    await clientTransport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } });
    return response;
  };
  const as = (auth: AuthInfo | undefined): void => {
    clientTransport.context = auth === undefined ? undefined : { authInfo: auth };
  };
  return { call, as, received, connection };
}

function principal(subject: string): AuthInfo {
  return { token: `token-of-${subject}`, clientId: 'app', scopes: ['mcp'], issuer: 'https://as.example', subject, tokenType: 'Bearer', claims: { sub: subject } };
}

describe('an attempt that ended with an InputRequiredResult', () => {
  function server(clock: SimulatedClock, seen: { unwound: number; reasons: unknown[] }): McpServer {
    const mcp = new McpServer({ name: 'lifetime', version: '1.0.0' });
    // Asks for a name while a minute-long piece of work (on the injected clock) runs beside it.
    mcp.registerTool('ask_while_working', {}, async (_args, extra) => {
      try {
        const [answer] = await Promise.all([extra.elicit({ message: 'Name?', requestedSchema: NAME_SCHEMA }, { inputKey: 'name' }), sleep(clock, 60_000, extra.signal)]);
        return { content: [{ type: 'text', text: String(answer.content?.name) }] };
      } finally {
        seen.unwound += 1;
        seen.reasons.push(extra.signal.reason);
      }
    });
    return mcp;
  }

  it('aborts the handler signal with a clear reason and rejects its unanswered input requests, leaving no timer', async () => {
    const clock = new SimulatedClock();
    const seen = { unwound: 0, reasons: [] as unknown[] };
    const peer = await modernPeer(server(clock, seen));
    const response = await peer.call('tools/call', { name: 'ask_while_working' });
    expect((response.result as JsonObject).resultType).toBe('input_required');
    await flush();
    expect(seen.unwound).toBe(1);
    const reason = seen.reasons[0];
    expect(reason).toBeInstanceOf(RequestCancelledError);
    expect((reason as RequestCancelledError).reason).toBe('inputRequired');
    expect((reason as Error).message).toMatch(/ended with an InputRequiredResult; the handler runs again when the client retries/);
    expect(clock.pendingTimers).toBe(0);
  });

  it('leaves nothing behind when the client never retries, however many attempts were abandoned', async () => {
    const clock = new SimulatedClock();
    const seen = { unwound: 0, reasons: [] as unknown[] };
    const peer = await modernPeer(server(clock, seen));
    const responses = await Promise.all(Array.from({ length: 50 }, () => peer.call('tools/call', { name: 'ask_while_working' })));
    expect(responses.every((response) => (response.result as JsonObject).resultType === 'input_required')).toBe(true);
    await flush();
    expect(seen.unwound).toBe(50);
    expect(clock.pendingTimers).toBe(0);
    expect(peer.connection.session.pendingRequests()).toEqual([]);
    // Nothing the abandoned handlers did afterwards reached the client: one response per request.
    clock.advance(60_000);
    await flush();
    expect(peer.received).toHaveLength(50);
  });

  it('still completes on the retry, with a signal that is not aborted', async () => {
    const clock = new SimulatedClock();
    const seen = { unwound: 0, reasons: [] as unknown[] };
    const peer = await modernPeer(server(clock, seen));
    const first = (await peer.call('tools/call', { name: 'ask_while_working' })).result as JsonObject;
    const retry = peer.call('tools/call', { name: 'ask_while_working', inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState });
    // The retry's handler starts once the state is opened (Web Crypto answers asynchronously).
    while (clock.pendingTimers === 0) await flush();
    clock.advance(60_000);
    expect(((await retry).result as JsonObject).content).toEqual([{ type: 'text', text: 'Ada' }]);
    expect(seen.reasons[1]).toBeUndefined();
  });
});

describe('requestState and the authorization principal', () => {
  function server(): McpServer {
    const mcp = new McpServer({ name: 'principal', version: '1.0.0' }, { requestState: { key: 'k'.repeat(32) } });
    mcp.registerTool('greet', {}, async (_args, extra) => {
      const answer = await extra.elicit({ message: 'Name?', requestedSchema: NAME_SCHEMA }, { inputKey: 'name' });
      return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)} (${extra.auth?.subject ?? 'anonymous'})` }] };
    });
    return mcp;
  }
  const answer = { name: { action: 'accept', content: { name: 'Ada' } } };

  it('accepts the state from the principal it was minted for, even with a refreshed token', async () => {
    const peer = await modernPeer(server());
    peer.as(principal('alice'));
    const first = (await peer.call('tools/call', { name: 'greet' })).result as JsonObject;
    peer.as({ ...principal('alice'), token: 'a-refreshed-token' });
    const retry = await peer.call('tools/call', { name: 'greet', inputResponses: answer, requestState: first.requestState });
    expect((retry.result as JsonObject).content).toEqual([{ type: 'text', text: 'Hello, Ada (alice)' }]);
  });

  it('refuses a state minted for principal A when principal B presents it, with -32602', async () => {
    const peer = await modernPeer(server());
    peer.as(principal('alice'));
    const first = (await peer.call('tools/call', { name: 'greet' })).result as JsonObject;
    peer.as(principal('bob'));
    const stolen = await peer.call('tools/call', { name: 'greet', inputResponses: answer, requestState: first.requestState });
    expect(stolen.error).toMatchObject({ code: -32602, message: 'Invalid requestState: issued for another principal' });
  });

  it('refuses a principal’s state without one, and an anonymous state with one', async () => {
    const peer = await modernPeer(server());
    peer.as(principal('alice'));
    const alices = (await peer.call('tools/call', { name: 'greet' })).result as JsonObject;
    peer.as(undefined);
    const anonymous = (await peer.call('tools/call', { name: 'greet' })).result as JsonObject;
    expect((await peer.call('tools/call', { name: 'greet', inputResponses: answer, requestState: alices.requestState })).error).toMatchObject({ code: -32602 });
    peer.as(principal('alice'));
    expect((await peer.call('tools/call', { name: 'greet', inputResponses: answer, requestState: anonymous.requestState })).error).toMatchObject({ code: -32602 });
    peer.as(undefined);
    const retry = await peer.call('tools/call', { name: 'greet', inputResponses: answer, requestState: anonymous.requestState });
    expect((retry.result as JsonObject).content).toEqual([{ type: 'text', text: 'Hello, Ada (anonymous)' }]);
  });
});
