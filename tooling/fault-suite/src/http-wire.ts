/**
 * A raw Streamable HTTP peer for fault tests: POSTs arbitrary bodies and reads whatever
 * comes back — a JSON body (object or array), an SSE stream, or nothing — into a list of
 * messages, without any statemcp client code in between.
 */
import { initializeRequest, INITIALIZED_NOTIFICATION, PROTOCOL_VERSION } from './handshake-messages.js';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  /** Every JSON-RPC message in the body, in order. */
  readonly messages: unknown[];
  /** Body text that was not JSON (a JSON content type) or SSE data that was not JSON. */
  readonly garbage: string[];
}

function messagesOf(text: string, contentType: string): { messages: unknown[]; garbage: string[] } {
  const messages: unknown[] = [];
  const garbage: string[] = [];
  const take = (data: string): void => {
    if (data === '') return; // an SSE priming event (an id and no data)
    try {
      const value: unknown = JSON.parse(data);
      messages.push(...(Array.isArray(value) ? value : [value]));
    } catch {
      garbage.push(data.slice(0, 200));
    }
  };
  if (contentType.startsWith('text/event-stream')) {
    for (const data of sseData(text)) take(data);
  } else if (contentType.includes('json') && text.trim() !== '') {
    take(text);
  }
  return { messages, garbage };
}

/**
 * The `data` of each event of a complete SSE body, read independently of the SDK's parser (the
 * oracle must not share the code it checks): events end at a blank line, `data:` lines join
 * with newlines, comments and other fields are skipped.
 */
function sseData(text: string): string[] {
  const events: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line === 'data' || line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length > 0) events.push(data.join('\n'));
  }
  return events;
}

export class HttpWire {
  sessionId = '';

  constructor(readonly url: string) {}

  /** POSTs `body` as is, with the session headers unless `withoutSession`. */
  async post(body: string, options: { withoutSession?: boolean } = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    if (options.withoutSession !== true && this.sessionId !== '') {
      headers['mcp-session-id'] = this.sessionId;
      headers['mcp-protocol-version'] = PROTOCOL_VERSION;
    }
    const response = await fetch(this.url, { method: 'POST', headers, body });
    const contentType = response.headers.get('content-type') ?? '';
    const text = await response.text();
    return { status: response.status, contentType, ...messagesOf(text, contentType) };
  }

  /** Runs the handshake and keeps the session id for later posts. */
  async initialize(): Promise<void> {
    const init = await fetch(this.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify(initializeRequest(0)),
    });
    await init.text();
    if (init.status !== 200) throw new Error(`initialize answered ${String(init.status)}`);
    this.sessionId = init.headers.get('mcp-session-id') ?? '';
    const initialized = await this.post(JSON.stringify(INITIALIZED_NOTIFICATION));
    if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${String(initialized.status)}`);
  }
}
