/**
 * The checks of a POST that need nothing but the HTTP request: its `Accept` and
 * `Content-Type`, its size, and whether its body is JSON.
 */
import { ErrorCode, parseJson } from '@statemcp/protocol';
import { errorResponse } from './http-response.js';
import type { InboundRequest } from './inbound.js';

/** The default body limit of a POST, in bytes. */
export const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** True when an `Accept` value admits `type` (exact, `type/*` or `*\/*`, q > 0). */
export function acceptsMediaType(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false;
  // Clients send the same few `Accept` values on every request: remember the answers, in a
  // table emptied when full, so a POST does not split and lower-case its header each time.
  let answers = acceptAnswers.get(type);
  if (answers === undefined) {
    answers = new Map();
    acceptAnswers.set(type, answers);
  }
  const known = answers.get(accept);
  if (known !== undefined) return known;
  const answer = admits(accept, type);
  if (answers.size >= ACCEPT_ANSWERS_MAX) answers.clear();
  answers.set(accept, answer);
  return answer;
}

/** Remembered `Accept` values per media type. */
const ACCEPT_ANSWERS_MAX = 64;
const acceptAnswers = new Map<string, Map<string, boolean>>();

function admits(accept: string, type: string): boolean {
  const [major] = type.split('/');
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    const r = range.trim();
    if (r === type || r === '*/*' || r === `${major}/*`) return true;
  }
  return false;
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === 'application/json') return true; // what nearly every client sends
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * The body checks every POST front door shares: `Content-Type: application/json` (415), the
 * size limit (413), an unreadable body or invalid JSON (400 with -32700).
 */
export async function readJsonBody(inbound: InboundRequest, maxBody: number): Promise<{ readonly value: unknown } | Response> {
  if (!isJsonContentType(inbound.header('content-type'))) {
    return errorResponse(415, ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const body = await inbound.readBody(maxBody);
  if (!body.ok) {
    return body.tooLarge
      ? errorResponse(413, ErrorCode.InvalidRequest, `Payload Too Large: the limit is ${maxBody} bytes`)
      : errorResponse(400, ErrorCode.ParseError, `Could not read the request body: ${body.reason}`);
  }
  if ('parsed' in body) return { value: body.parsed };
  const parsed = parseJson(body.text);
  if (!parsed.ok) return errorResponse(400, ErrorCode.ParseError, `Parse error: ${parsed.reason}`);
  return { value: parsed.value };
}
