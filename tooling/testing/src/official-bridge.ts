/**
 * A connected pair for interop tests in one process: `ours` for a statemcp Session, Client or
 * Server, `theirs` for the official SDK's `Client.connect()` / `McpServer.connect()`. It is an
 * in-memory pair with the public bridge (`toOfficialTransport` of `@statemcp/protocol`) on the
 * official end, so every interop test also exercises the bridge users get.
 */
import { InMemoryTransport, toOfficialTransport, type OfficialTransport, type Transport } from '@statemcp/protocol';

/** The structural shape of the official SDK's Transport (1.x and 2.x agree on it). */
export type OfficialTransportLike = OfficialTransport;

/**
 * Creates a connected pair.
 *
 * @example
 * ```ts
 * const { ours, theirs } = createOfficialBridge();
 * await ourServer.connect(ours);
 * await officialClient.connect(theirs);
 * ```
 */
export function createOfficialBridge(): { ours: Transport; theirs: OfficialTransportLike } {
  const [ours, official] = InMemoryTransport.createPair();
  return { ours, theirs: toOfficialTransport(official) };
}
