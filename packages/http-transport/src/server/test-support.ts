/**
 * Helpers for this folder's tests: a protocol `Session` in the server role behind the HTTP
 * server, a tiny SSE reader, and raw request builders. Not exported from the package.
 */
import { Session, type InspectListener, type JsonObject, type RequestContext } from '@statemcp/protocol';
import type { StreamableHttpSessionTransport } from './session-transport.js';

export const ACCEPT_BOTH = 'application/json, text/event-stream';

export interface TestEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
  retry: number | undefined;
}

export type ToolHandler = (args: JsonObject, context: RequestContext, transport: StreamableHttpSessionTransport) => JsonObject | Promise<JsonObject>;

/** A server-role Session with `tools/list` and `tools/call` dispatching to `tools`. */
export function createServerSession(transport: StreamableHttpSessionTransport, tools: Record<string, ToolHandler> = {}, inspect?: InspectListener): Session {
  const session = new Session({
    ...(inspect === undefined ? {} : { inspect }),
    role: 'server',
    capabilities: () => ({ tools: {}, logging: {} }),
    onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'http-test', version: '1.0.0' } }),
  });
  session.setRequestHandler('tools/list', () => ({
    tools: Object.keys(tools).map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
  }));
  session.setRequestHandler('tools/call', async (params, context) => {
    const name = typeof params.name === 'string' ? params.name : '';
    const tool = tools[name];
    if (tool === undefined) return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
    const args = typeof params.arguments === 'object' && params.arguments !== null ? (params.arguments as JsonObject) : {};
    return tool(args, context, transport);
  });
  return session;
}

/** Reads SSE events from a fetch body until it ends or `until` says stop. */
export async function readEvents(
  body: ReadableStream<Uint8Array> | null,
  until: (event: TestEvent, all: TestEvent[]) => boolean = () => false,
): Promise<{ events: TestEvent[]; ended: boolean }> {
  const events: TestEvent[] = [];
  if (body === null) return { events, ended: true };
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { events, ended: true };
    buffer += value;
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const event: TestEvent = { id: undefined, event: undefined, data: '', retry: undefined };
      const data: string[] = [];
      let hasField = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const fieldValue = raw.startsWith(' ') ? raw.slice(1) : raw;
        hasField = true;
        if (field === 'data') data.push(fieldValue);
        else if (field === 'id') event.id = fieldValue;
        else if (field === 'event') event.event = fieldValue;
        else if (field === 'retry') event.retry = Number(fieldValue);
      }
      if (!hasField) continue;
      event.data = data.join('\n');
      events.push(event);
      if (until(event, events)) {
        await reader.cancel().catch(() => undefined);
        return { events, ended: false };
      }
    }
  }
}

/** The JSON-RPC messages among SSE events (priming and retry-only blocks skipped). */
export function messagesOf(events: readonly TestEvent[]): JsonObject[] {
  return events.filter((event) => event.data !== '').map((event) => JSON.parse(event.data) as JsonObject);
}

/**
 * The JSON-RPC messages of a POST's answer, whichever form the server chose (MCP 2025-11-25,
 * Transports §Streamable HTTP: a JSON body, one message or a batch, or an SSE stream).
 */
export async function answerMessages(response: Response): Promise<JsonObject[]> {
  if (response.headers.get('content-type')?.startsWith('application/json') === true) {
    const body = (await response.json()) as JsonObject | JsonObject[];
    return Array.isArray(body) ? body : [body];
  }
  return messagesOf((await readEvents(response.body)).events);
}

export function initializeBody(version = '2025-11-25', id: number | string = 0): JsonObject {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-client', version: '1.0.0' } },
  };
}

export function postInit(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
