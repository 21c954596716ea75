/**
 * The fixture of the session-binding and per-principal-caps tests: a real Streamable HTTP
 * server whose plain `authenticate` hook knows two users by their bearer token and returns
 * custom auth info (`{ user }`), and raw HTTP helpers that speak as one of them.
 */
import { Session } from '@statemcp/protocol';
import { InMemoryEventStore, createStreamableHttpServer, type ListeningServer, type StreamableHttpServerOptions } from '@statemcp/http-transport';

/** The bearer token of each test user. */
export const TOKENS = { alice: 'token-of-alice', bob: 'token-of-bob', carol: 'token-of-carol' } as const;
export type User = keyof typeof TOKENS;

const ACCEPT_BOTH = 'application/json, text/event-stream';
export const VERSION = '2025-11-25';

/** The plain hook under test: a known token gives `{ user }`, anything else throws (401). */
export function authenticateByToken(request: Request): { user: string } {
  const header = request.headers.get('authorization') ?? '';
  for (const [user, token] of Object.entries(TOKENS)) if (header === `Bearer ${token}`) return { user };
  throw new Error('unknown token');
}

/** A server-role session with one tool, `whoami`, naming the authenticated user. */
async function connectSession(transport: Parameters<NonNullable<StreamableHttpServerOptions['connect']>>[0], name: string): Promise<void> {
  const session = new Session({
    role: 'server',
    capabilities: () => ({ tools: {} }),
    onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } }),
  });
  session.setRequestHandler('tools/list', () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }));
  session.setRequestHandler('tools/call', (_params, context) => ({ content: [{ type: 'text', text: JSON.stringify(context.authInfo ?? null) }] }));
  await session.connect(transport);
}

/** Starts a server on 127.0.0.1:0 with the token hook, an event store and `extra` options. */
export async function startServer(extra: Partial<StreamableHttpServerOptions> = {}, name = 'security-suite'): Promise<ListeningServer> {
  const server = createStreamableHttpServer({
    eventStore: new InMemoryEventStore(),
    authenticate: authenticateByToken,
    ...extra,
    connect: (transport) => connectSession(transport, name),
  });
  return server.listen();
}

/** Raw requests to one MCP endpoint as one user. */
export class UserClient {
  readonly url: URL;
  readonly user: User;

  constructor(url: URL, user: User) {
    this.url = url;
    this.user = user;
  }

  headers(sessionId?: string, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKENS[this.user]}`, 'mcp-protocol-version': VERSION, ...extra };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    return headers;
  }

  /** POSTs one JSON-RPC message. */
  post(body: unknown, sessionId?: string): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: this.headers(sessionId, { accept: ACCEPT_BOTH, 'content-type': 'application/json' }),
      body: JSON.stringify(body),
    });
  }

  /** The `initialize` POST: the raw answer (200 with a session id, or a refusal). */
  initialize(): Promise<Response> {
    return this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: this.user, version: '1.0.0' } } });
  }

  /** A session through its handshake (initialize and `notifications/initialized`); its id. */
  async openSession(): Promise<string> {
    const init = await this.initialize();
    const sessionId = init.headers.get('mcp-session-id');
    await init.body?.cancel();
    if (init.status !== 200 || sessionId === null) throw new Error(`initialize as ${this.user} answered ${init.status}`);
    const initialized = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
    if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
    return sessionId;
  }

  /** A `tools/call` of `whoami` in the session; the raw answer (an SSE stream when 200). */
  whoami(sessionId: string, id = 1): Promise<Response> {
    return this.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, sessionId);
  }

  /** A GET of the session's standalone stream, or a resumption from `lastEventId`. */
  get(sessionId: string, lastEventId?: string): Promise<Response> {
    const extra: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId !== undefined) extra['last-event-id'] = lastEventId;
    return fetch(this.url, { headers: this.headers(sessionId, extra) });
  }

  delete(sessionId: string): Promise<Response> {
    return fetch(this.url, { method: 'DELETE', headers: this.headers(sessionId) });
  }
}

/** The `id:` fields and `data:` payloads of an SSE body read to its end. */
export async function sseEvents(response: Response): Promise<{ ids: string[]; data: string[] }> {
  const text = await response.text();
  const ids: string[] = [];
  const data: string[] = [];
  for (const block of text.split('\n\n')) {
    for (const line of block.split('\n')) {
      if (line.startsWith('id:')) ids.push(line.slice(3).trim());
      else if (line.startsWith('data:') && line.slice(5).trim() !== '') data.push(line.slice(5).trim());
    }
  }
  return { ids, data };
}
