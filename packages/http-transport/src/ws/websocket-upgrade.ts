/**
 * The HTTP side of the WebSocket server: answering a refused upgrade on the raw socket (before
 * any WebSocket exists), and turning a refusal of the authorization layer (a 403
 * `insufficient_scope` `Response`) into the JSON-RPC error a request over the socket gets.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, type JsonRpcMessage } from '@statemcp/protocol';

/**
 * Writes `response` as the HTTP answer to an upgrade request and ends the socket: its status,
 * its headers (`WWW-Authenticate` included) and its body, with `Connection: close`.
 */
export async function refuseUpgrade(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.text(), 'utf8');
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Refused'}`, 'Connection: close'];
  response.headers.forEach((value, name) => {
    if (name !== 'connection' && name !== 'content-length' && name !== 'transfer-encoding') lines.push(`${name}: ${value}`);
  });
  lines.push(`Content-Length: ${body.byteLength}`);
  if (socket.destroyed) return;
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}

/** A plain-text refusal of an upgrade request. */
export function textRefusal(status: number, reason: string): Response {
  return new Response(`${reason}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * The error replies to the requests among `items` that the authorization layer refused together
 * (`refusal`, e.g. a 403 `insufficient_scope` with `WWW-Authenticate`): over WebSocket there is
 * no HTTP status after the upgrade, so the status, the OAuth error and the challenge travel in
 * `error.data`. A batch gets an array of replies; notifications get none (`undefined` when
 * nothing is to be answered).
 */
export async function refusalReply(items: readonly unknown[], refusal: Response, batch: boolean): Promise<JsonRpcMessage | JsonRpcMessage[] | undefined> {
  let oauth: unknown;
  try {
    oauth = await refusal.json();
  } catch {
    oauth = undefined;
  }
  const described = typeof oauth === 'object' && oauth !== null ? (oauth as { error?: unknown; error_description?: unknown }) : {};
  const error = typeof described.error === 'string' ? described.error : 'forbidden';
  const description = typeof described.error_description === 'string' ? `: ${described.error_description}` : '';
  const challenge = refusal.headers.get('www-authenticate');
  const replies: JsonRpcMessage[] = [];
  for (const item of items) {
    const id = typeof item === 'object' && item !== null && 'method' in item ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    replies.push({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InvalidRequest,
        message: `Forbidden (${error})${description}`,
        data: { status: refusal.status, error, ...(challenge === null ? {} : { wwwAuthenticate: challenge }) },
      },
    });
  }
  if (replies.length === 0) return undefined;
  return batch ? replies : replies[0];
}
