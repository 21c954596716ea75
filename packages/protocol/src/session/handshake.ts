/**
 * The legacy handshake's two halves (MCP 2025-11-25 basic/lifecycle): the client proposes a version and
 * validates the InitializeResult; the server negotiates, asks its `onInitialize` and
 * answers. Neither decides lifecycle: each reports `initializeSucceeded` or
 * `initializeFailed` to the connection machine, which decides what follows (including,
 * after a session expired, whether the new handshake may continue the old session).
 */
import { ConnectionClosedError, InvalidResultError, UnsupportedProtocolVersionError, toWireError } from '../errors/errors.js';
import { ErrorCode, type JsonObject, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { ConnectionEvent, ConnectionState, PeerInfo } from '../machines/connection-types.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext } from '../transport/transport.js';
import { acceptServerVersion, negotiateServerVersion } from '../versions.js';
import type { InitializeParams, InitializeResultShape, RequestOptions, SessionOptions } from './options.js';
import { formatIssues } from './validation.js';

/** What a handshake needs from its session. */
export interface HandshakeHost {
  readonly options: SessionOptions;
  /** The versions that have a handshake: `initialize` negotiates among them. */
  readonly handshakeVersions: readonly string[];
  useRevision(version: string): Revision;
  isInitializing(): boolean;
  dispatch(event: ConnectionEvent): void;
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  /** Where the server's half answers `initialize`. */
  readonly inbound: {
    replyResult(id: JsonRpcRequest['id'], result: JsonObject): void;
    replyError(id: JsonRpcRequest['id'], code: number, message: string, data?: unknown): void;
  };
}

/** The outcome of the client's half: the validated result, or the failure already reported to the machine. */
export type ClientHandshakeOutcome = { readonly ok: true; readonly result: InitializeResultShape } | { readonly ok: false; readonly error: Error };

/**
 * Client: sends `initialize` with `proposed` (through the ledger, so it is visible and timed),
 * accepts any supported answer, validates the result against the answered revision and
 * reports the outcome to the machine.
 */
export async function runClientHandshake(host: HandshakeHost, params: InitializeParams, proposed: string, options: RequestOptions): Promise<ClientHandshakeOutcome> {
  host.useRevision(proposed);
  let result: JsonObject;
  try {
    result = await host.request('initialize', { ...params, protocolVersion: proposed }, options);
  } catch (error) {
    return failHandshake(host, error instanceof Error ? error : new Error(String(error)));
  }
  const answered = typeof result.protocolVersion === 'string' ? result.protocolVersion : '';
  let version: string;
  try {
    version = acceptServerVersion(answered, host.handshakeVersions);
  } catch (error) {
    return failHandshake(host, error instanceof UnsupportedProtocolVersionError ? error : new UnsupportedProtocolVersionError(answered, host.handshakeVersions), 'versionMismatch');
  }
  const parsed = host.useRevision(version).schemas.InitializeResult.safeParse(result);
  if (!parsed.success) return failHandshake(host, new InvalidResultError(`Invalid InitializeResult: ${formatIssues(parsed.error)}`));
  const shaped = parsed.data as InitializeResultShape;
  const peer: PeerInfo =
    typeof shaped.instructions === 'string'
      ? { capabilities: shaped.capabilities, info: shaped.serverInfo, instructions: shaped.instructions }
      : { capabilities: shaped.capabilities, info: shaped.serverInfo };
  host.dispatch({ type: 'initializeSucceeded', version, peer });
  return { ok: true, result: shaped };
}

/** Client: reports a failed handshake to the machine (a module function: no closure per handshake). */
function failHandshake(host: HandshakeHost, error: Error, reason: 'initializeFailed' | 'versionMismatch' = 'initializeFailed'): ClientHandshakeOutcome {
  host.dispatch({ type: 'initializeFailed', reason, error });
  return { ok: false, error };
}

/**
 * Server: negotiates the version (the client's if supported, else our latest), validates the
 * params, asks `onInitialize`, answers, and reports to the machine. The reply is handed to
 * the transport before the machine replays what arrived meanwhile (arrival order).
 */
export async function answerInitialize(host: HandshakeHost, message: JsonRpcRequest, context: InboundContext | undefined): Promise<void> {
  const { id } = message;
  const params = message.params ?? {};
  if (host.handshakeVersions.length === 0) {
    // A server configured with no handshake revision (2026-07-28 only) cannot answer with a version of
    // its own (2025-11-25 basic/lifecycle, "Version Negotiation"): the "Unsupported protocol version"
    // error of that section's Error Handling, naming what it does serve.
    const refused = new UnsupportedProtocolVersionError(String(params.protocolVersion), host.options.supportedVersions ?? []);
    const wire = refused.toJsonRpcError();
    host.inbound.replyError(id, wire.code, wire.message, wire.data);
    host.dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: refused });
    return;
  }
  const version = negotiateServerVersion(params.protocolVersion, host.handshakeVersions);
  const parsed = host.useRevision(version).schemas.InitializeRequestParams.safeParse(params);
  if (!parsed.success) {
    host.inbound.replyError(id, ErrorCode.InvalidParams, `Invalid params for initialize: ${formatIssues(parsed.error)}`);
    host.dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: new Error('invalid initialize params') });
    return;
  }
  const clientParams = parsed.data as InitializeParams;
  let result: InitializeResultShape;
  try {
    const options = host.options;
    if (options.onInitialize === undefined) throw new Error('This server session has no onInitialize option');
    // A method call: the options may be an object whose callbacks are its methods.
    result = await options.onInitialize(clientParams, version, context);
  } catch (error) {
    const wire = toWireError(error);
    host.inbound.replyError(id, wire.code, wire.message, wire.data);
    host.dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: error instanceof Error ? error : new Error(String(error)) });
    return;
  }
  if (!host.isInitializing()) return; // closed meanwhile
  // The machine learns the version first (`negotiated` reaches the transport before the reply);
  // what arrived meanwhile is replayed only after the reply below is handed to the transport.
  host.dispatch({ type: 'initializeSucceeded', version, peer: { capabilities: clientParams.capabilities, info: clientParams.clientInfo } });
  host.inbound.replyResult(id, { ...result, protocolVersion: version });
}

/**
 * Client, after the server forgot the session (the machine is Initializing, phase `resuming`):
 * the first handshake's parameters go out again at the session's version, through the ledger,
 * and the answer is validated like the first one. The machine decides whether it may continue
 * the session; a failure has already ended it.
 */
export async function repeatClientHandshake(host: HandshakeHost, state: ConnectionState, params: InitializeParams | undefined): Promise<void> {
  if (state.kind !== 'initializing' || state.phase !== 'resuming') return;
  if (params === undefined) {
    host.dispatch({ type: 'fatalError', error: new ConnectionClosedError('The server forgot the session, and this session never ran a handshake it could repeat') });
    return;
  }
  await runClientHandshake(host, params, state.version, {});
}

