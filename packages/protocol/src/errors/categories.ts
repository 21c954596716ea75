/**
 * The one table that maps every error to a recovery category. Callers branch on
 * `error.category` instead of on codes:
 *
 * | category          | meaning                                              | from                                     |
 * |-------------------|------------------------------------------------------|------------------------------------------|
 * | `timeout`         | no answer in time (or in the allowed MRTR rounds)    | REQUEST_TIMEOUT, INPUT_ROUNDS_EXCEEDED   |
 * | `format`          | unparseable, malformed or oversized message or list, content not matching its manifest | -32700, INVALID_RESULT, MESSAGE_TOO_LARGE, TOO_MANY_PAGES, SKILL_VERIFICATION_FAILED |
 * | `invalid-request` | bad method, params, state or capability              | -32600, -32601, -32602, -32002, -32020…-32022, INVALID_STATE, CAPABILITY_NOT_SUPPORTED, UNSUPPORTED_PROTOCOL_VERSION, ALREADY_CONNECTED |
 * | `auth`            | authentication or authorization refused, or an OAuth discovery document refused | AUTH_REQUIRED (HTTP 401/403), AUTH_DISCOVERY_REFUSED, -32042 |
 * | `model`           | sampling failed or was rejected                      | -1                                       |
 * | `interrupted`     | cancelled, aborted, or the connection went away      | REQUEST_CANCELLED, CONNECTION_CLOSED, NO_RETURN_CHANNEL, TRANSPORT_ERROR, SESSION_CHANGED, SESSION_EXPIRED, REDIRECT_REFUSED |
 * | `handler`         | a handler threw                                      | -32603                                   |
 * | `unknown`         | anything else                                        | other codes                              |
 */
export type ErrorCategory =
  | 'timeout'
  | 'format'
  | 'invalid-request'
  | 'auth'
  | 'model'
  | 'interrupted'
  | 'handler'
  | 'unknown';

/** Stable string codes of local (never-on-the-wire) errors. */
export const LocalErrorCode = {
  RequestTimeout: 'REQUEST_TIMEOUT',
  RequestCancelled: 'REQUEST_CANCELLED',
  ConnectionClosed: 'CONNECTION_CLOSED',
  InvalidState: 'INVALID_STATE',
  AlreadyConnected: 'ALREADY_CONNECTED',
  UnsupportedProtocolVersion: 'UNSUPPORTED_PROTOCOL_VERSION',
  CapabilityNotSupported: 'CAPABILITY_NOT_SUPPORTED',
  InvalidResult: 'INVALID_RESULT',
  MessageTooLarge: 'MESSAGE_TOO_LARGE',
  TransportError: 'TRANSPORT_ERROR',
  NoReturnChannel: 'NO_RETURN_CHANNEL',
  AuthRequired: 'AUTH_REQUIRED',
  AuthDiscoveryRefused: 'AUTH_DISCOVERY_REFUSED',
  InvalidArgument: 'INVALID_ARGUMENT',
  SessionChanged: 'SESSION_CHANGED',
  SessionExpired: 'SESSION_EXPIRED',
  TooManyPages: 'TOO_MANY_PAGES',
  InputRoundsExceeded: 'INPUT_ROUNDS_EXCEEDED',
  SkillVerificationFailed: 'SKILL_VERIFICATION_FAILED',
  RedirectRefused: 'REDIRECT_REFUSED',
} as const;
export type LocalErrorCode = (typeof LocalErrorCode)[keyof typeof LocalErrorCode];

/** Category of each local error code. */
export const LOCAL_ERROR_CATEGORIES: Readonly<Record<LocalErrorCode, ErrorCategory>> = Object.freeze({
  REQUEST_TIMEOUT: 'timeout',
  INPUT_ROUNDS_EXCEEDED: 'timeout',
  REQUEST_CANCELLED: 'interrupted',
  CONNECTION_CLOSED: 'interrupted',
  TRANSPORT_ERROR: 'interrupted',
  NO_RETURN_CHANNEL: 'interrupted',
  SESSION_CHANGED: 'interrupted',
  SESSION_EXPIRED: 'interrupted',
  REDIRECT_REFUSED: 'interrupted',
  INVALID_STATE: 'invalid-request',
  ALREADY_CONNECTED: 'invalid-request',
  UNSUPPORTED_PROTOCOL_VERSION: 'invalid-request',
  CAPABILITY_NOT_SUPPORTED: 'invalid-request',
  INVALID_ARGUMENT: 'invalid-request',
  INVALID_RESULT: 'format',
  MESSAGE_TOO_LARGE: 'format',
  TOO_MANY_PAGES: 'format',
  SKILL_VERIFICATION_FAILED: 'format',
  AUTH_REQUIRED: 'auth',
  AUTH_DISCOVERY_REFUSED: 'auth',
});

/** Category of a numeric JSON-RPC / MCP code. */
export function categoryOfWireCode(code: number): ErrorCategory {
  switch (code) {
    case -32700:
      return 'format';
    case -32600:
    case -32601:
    case -32602:
    case -32002:
    case -32020:
    case -32021:
    case -32022:
      return 'invalid-request';
    case -32042:
      return 'auth';
    case -32603:
      return 'handler';
    case -1:
      return 'model';
    default:
      return 'unknown';
  }
}
