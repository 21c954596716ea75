/**
 * The Streamable HTTP client transport's own state: its mode, what one POST came to, and what
 * it knows of the current session (MCP 2025-11-25 Transports §Session Management).
 */
import type { TransportSink } from '@statemcp/protocol';
import type { SseClientTransport } from './sse-client.js';

/** The transport's own state. */
export type Mode =
  | { kind: 'new' }
  | { kind: 'streamable'; sink: TransportSink }
  | { kind: 'fallingBack'; sink: TransportSink; done: Promise<void> }
  | { kind: 'legacy'; sink: TransportSink; legacy: SseClientTransport }
  | { kind: 'closing'; sink: TransportSink | undefined; done: Promise<void> }
  | { kind: 'closed' };

/** What a POST is to the session: one that opens it, its own traffic, or a 2026-07-28 request (no session). */
export type PostRole = 'opening' | 'session' | 'modern';

/** What one POST came to. */
export type PostOutcome = { kind: 'done' } | { kind: 'sessionExpired'; sessionId: string } | { kind: 'legacyCandidate'; error: Error };

/**
 * Facts about the current session id, reported to the session's machine when the server
 * forgets it (`TransportSink.onSessionExpired`); the machine decides what they mean.
 */
export interface SessionRecord {
  /** The id was issued after the server forgot the previous one. */
  readonly replacement: boolean;
  /** The server accepted a request on this session. */
  answered: boolean;
  /** This session's standalone GET stream was opened (once per session). */
  standalone: boolean;
}
