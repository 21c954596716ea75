/**
 * The handshake, both roles (digest §1.1). It decides nothing about the lifecycle: every
 * outcome is an event of the connection machine (`initializeSucceeded`, `initializeFailed`),
 * and the machine's effects (`negotiated`, `sendInitialized`) do the rest.
 *
 * - Client: `initialize` goes through the ledger like any request; the answer's version must
 *   be one this side speaks, and the InitializeResult is validated against that revision.
 * - Server: the version is negotiated, the params validated, `onInitialize` builds the result,
 *   and the machine reaches Initialized before the reply is handed to the transport, so an
 *   `initialized` right behind it finds the server ready.
 */
import { InvalidResultError, InvalidStateError, UnsupportedProtocolVersionError, toWireError } from '../errors/errors.js';
import { ErrorCode, type JsonObject, type JsonRpcRequest, type JsonRpcResultResponse, type RequestId } from '../jsonrpc/messages.js';
import type { ConnectionEvent, ConnectionState, PeerInfo, Role } from '../machines/connection-types.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext } from '../transport/transport.js';
import { getRevision } from '../revisions/registry.js';
import { LATEST_LEGACY_PROTOCOL_VERSION, acceptServerVersion, negotiateServerVersion, proposeVersion } from '../versions.js';
import type { CloseInfo, InitializeParams, InitializeResultShape, RequestOptions, SessionOptions } from './options.js';
import { formatIssues } from './validation.js';

/** What the handshake needs from its session. */
export interface HandshakeHost {
  readonly role: Role;
  readonly options: SessionOptions;
  readonly supported: readonly string[];
  readonly closed: Promise<CloseInfo>;
  state(): ConnectionState;
  dispatch(event: ConnectionEvent): void;
  /** Switches the session to `version`'s revision and returns it. */
  useRevision(version: string): Revision;
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  reply(message: JsonRpcResultResponse, relatedRequestId: RequestId): void;
  replyError(id: RequestId, code: number, message: string, data?: unknown): void;
  /** Settles once `notifications/initialized` of the last handshake has been sent. */
  initializedSent(): Promise<void>;
  /** Keeps the initialize params sent, for a handshake re-run after a session expiry. */
  remember(params: JsonObject): void;
  /** Sends `initialize` through the ledger without the gate (the machine asked for it). */
  sendInitialize(params: JsonObject): Promise<JsonObject>;
}

/** Client: runs the handshake; rejects, once the session has terminated, when it fails. */
export async function runClientHandshake(host: HandshakeHost, params: InitializeParams, options: RequestOptions): Promise<InitializeResultShape> {
  const proposed = params.protocolVersion ?? proposeVersion(host.supported);
  host.useRevision(proposed);
  const sent: JsonObject = { ...params, protocolVersion: proposed };
  host.remember(sent);
  let answer: JsonObject;
  try {
    answer = await host.request('initialize', sent, options);
  } catch (error) {
    return fail(host, 'initializeFailed', error instanceof Error ? error : new Error(String(error)));
  }
  const checked = checkInitializeResult(host, answer);
  if (checked instanceof Error) return fail(host, checked instanceof UnsupportedProtocolVersionError ? 'versionMismatch' : 'initializeFailed', checked);
  host.dispatch({ type: 'initializeSucceeded', version: checked.version, peer: checked.peer });
  await host.initializedSent();
  return checked.result;
}

/**
 * Client, after a session expiry (the machine's `reinitialize` effect): sends the remembered
 * initialize params again through the ledger and validates the answer exactly like the first.
 * The machine compares the new version and capabilities with the previous ones; on success
 * its effects send `notifications/initialized` and tell the transport the version.
 */
export async function rerunClientHandshake(host: HandshakeHost, params: JsonObject | undefined): Promise<void> {
  let answer: JsonObject;
  try {
    if (params === undefined) throw new InvalidStateError('The session expired before any initialize was sent', host.state().kind);
    answer = await host.sendInitialize(params);
  } catch (error) {
    host.dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: error instanceof Error ? error : new Error(String(error)) });
    return;
  }
  const checked = checkInitializeResult(host, answer);
  if (checked instanceof Error) {
    host.dispatch({ type: 'initializeFailed', reason: checked instanceof UnsupportedProtocolVersionError ? 'versionMismatch' : 'initializeFailed', error: checked });
    return;
  }
  host.dispatch({ type: 'initializeSucceeded', version: checked.version, peer: checked.peer });
}

/** A validated InitializeResult: the version this side accepts, the peer it describes. */
export interface CheckedInitializeResult {
  readonly version: string;
  readonly peer: PeerInfo;
  readonly result: InitializeResultShape;
}

/**
 * Client: checks an InitializeResult. The answered version must be supported (else
 * `UnsupportedProtocolVersionError`); the result must match that revision's schema (else
 * `InvalidResultError`). Switches the session to the answered revision.
 */
export function checkInitializeResult(host: HandshakeHost, answer: JsonObject): CheckedInitializeResult | Error {
  const answered = typeof answer.protocolVersion === 'string' ? answer.protocolVersion : '';
  let version: string;
  try {
    version = acceptServerVersion(answered, host.supported);
  } catch (error) {
    return error instanceof UnsupportedProtocolVersionError ? error : new UnsupportedProtocolVersionError(answered, host.supported);
  }
  const parsed = host.useRevision(version).schemas.InitializeResult.safeParse(answer);
  if (!parsed.success) return new InvalidResultError(`Invalid InitializeResult: ${formatIssues(parsed.error)}`);
  const result = parsed.data as InitializeResultShape;
  const peer: PeerInfo =
    typeof result.instructions === 'string'
      ? { capabilities: result.capabilities, info: result.serverInfo, instructions: result.instructions }
      : { capabilities: result.capabilities, info: result.serverInfo };
  return { version, peer, result };
}

async function fail(host: HandshakeHost, reason: 'initializeFailed' | 'versionMismatch', error: Error): Promise<never> {
  host.dispatch({ type: 'initializeFailed', reason, error });
  await host.closed;
  throw error;
}

/**
 * Server: answers `initialize`. Resolves once the reply (result or error) has been handed to
 * the transport and the machine has moved, so the runner may read the next inbound frame.
 */
export async function answerInitialize(host: HandshakeHost, message: JsonRpcRequest, context: InboundContext | undefined): Promise<void> {
  const { id } = message;
  const params = message.params ?? {};
  const version = negotiateServerVersion(params.protocolVersion, host.supported);
  const parsed = host.useRevision(version).schemas.InitializeRequestParams.safeParse(params);
  if (!parsed.success) {
    host.replyError(id, ErrorCode.InvalidParams, `Invalid params for initialize: ${formatIssues(parsed.error)}`);
    host.dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: new Error('invalid initialize params') });
    return;
  }
  const clientParams = parsed.data as InitializeParams;
  const onInitialize = host.options.onInitialize;
  let result: InitializeResultShape;
  try {
    if (onInitialize === undefined) throw new Error('This server session has no onInitialize option');
    result = await onInitialize(clientParams, version, context);
  } catch (error) {
    const wire = toWireError(error);
    host.replyError(id, wire.code, wire.message, wire.data);
    host.dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: error instanceof Error ? error : new Error(String(error)) });
    return;
  }
  if (host.state().kind !== 'initializing') return; // closed meanwhile
  const peer: PeerInfo = { capabilities: clientParams.capabilities, info: clientParams.clientInfo };
  // The result counts as sent once handed to the transport: dispatch first so an
  // `initialized` right behind it finds the server in Initialized.
  host.dispatch({ type: 'initializeSucceeded', version, peer });
  host.reply({ jsonrpc: '2.0', id, result: { ...result, protocolVersion: version } }, id);
}

/** The revision of `version`, or the latest legacy one when `version` is unknown. */
export function revisionFor(version: string): Revision {
  const revision = getRevision(version) ?? getRevision(LATEST_LEGACY_PROTOCOL_VERSION);
  if (revision === undefined) throw new Error(`No revision registered for ${version}`);
  return revision;
}
