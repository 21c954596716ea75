/**
 * The client's half of `connect()` once its capabilities are declared: attach the transport
 * to the session, then agree on an era (the handshake, or modern-era discovery) through the
 * session's connection machine.
 */
import type { InitializeParams, NegotiateOptions, Session, Transport } from '@statemcp/protocol';
import type { ClientOptions, ConnectOptions } from './options.js';
import type { ClientCapabilities, Implementation } from './types.js';

/**
 * Connects `session` to `transport` and negotiates with `declared` capabilities. On failure it
 * rejects only once the machine has finished shutting the failed connection down.
 */
export async function connectAndNegotiate(
  session: Session,
  transport: Transport,
  declared: ClientCapabilities,
  clientInfo: Implementation,
  clientOptions: ClientOptions,
  options: ConnectOptions,
): Promise<void> {
  await session.connect(transport);
  const params: InitializeParams = {
    // `declared` is this connection's own object (built fresh by `buildCapabilities`, never written to afterwards):
    // no copy of it; the transport serialises (or, in memory, copies) what it sends.
    capabilities: declared,
    clientInfo: { ...clientInfo },
  };
  // Optional members assigned when present (a conditional spread builds and copies a throw-away object each).
  if (clientOptions.protocolVersion !== undefined) params.protocolVersion = clientOptions.protocolVersion;
  const negotiateOptions: { -readonly [K in keyof NegotiateOptions]: NegotiateOptions[K] } = { era: clientOptions.era ?? 'auto' };
  if (options.timeoutMs !== undefined) negotiateOptions.timeoutMs = options.timeoutMs;
  if (options.signal !== undefined) negotiateOptions.signal = options.signal;
  try {
    await session.negotiate(params, negotiateOptions);
  } catch (error) {
    // The machine is shutting the failed connection down; reject once it has finished.
    if (session.state.kind === 'shuttingDown') await session.closed;
    throw error;
  }
}
