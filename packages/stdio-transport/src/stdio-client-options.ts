/**
 * The options, diagnostic events and observable states of the stdio client transport.
 */
import type { Clock } from '@statemcp/protocol';
import type { TreeSignal } from './process-tree.js';
import type { StrayOutputMode } from './stray-output.js';

/** What happens to the child's stderr. */
export type StdioStderrMode =
  /** Drained into the bounded tail (see `stderrTail()`) and passed to `onStderr`. Default. */
  | 'pipe'
  /** Shared with this process's stderr; nothing is kept. */
  | 'inherit'
  /** Discarded. */
  | 'ignore';

/** Options of {@link StdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The executable to run (resolved through `PATH`; no shell is involved). */
  command: string;
  args?: readonly string[];
  /** Working directory of the child. Default: this process's. */
  cwd?: string;
  /**
   * Variables set on top of {@link getDefaultEnvironment}'s allow-list; `undefined` removes
   * one. Pass `{ ...process.env }` to hand the child everything.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default `'pipe'`. */
  stderr?: StdioStderrMode;
  /** Every stderr chunk, as it arrives (mode `'pipe'` only). Exceptions are ignored. */
  onStderr?: (chunk: Buffer) => void;
  /** Bytes of stderr kept for `stderrTail()` and close details. Default 64 KiB. */
  stderrTailBytes?: number;
  /** Largest accepted line from the server, in bytes. Default 64 MiB; beyond it the transport closes with `MessageTooLargeError`. */
  maxMessageSize?: number;
  /** How long the child gets to exit after its stdin is closed. Default 2000 ms. */
  closeTimeoutMs?: number;
  /** How long the process tree gets to exit after SIGTERM. Default 2000 ms. */
  terminateTimeoutMs?: number;
  /** How long to wait for the tree to vanish after SIGKILL. Default 2000 ms. */
  killTimeoutMs?: number;
  /**
   * Send SIGTERM to the child's process tree if this process exits while the transport is
   * still open (a wrapper's grandchild, or a child in its own process group, would otherwise
   * outlive it). Default true.
   */
  killOnParentExit?: boolean;
  /**
   * POSIX: spawn the child as the leader of a new process group (`detached`, hence a new
   * session) and signal the group (`-pid`) on shutdown. Default false: the child stays in
   * this process's group, as the official SDKs spawn it, and shutdown follows its descendants
   * instead (every process it or its children started, also after their parent exited).
   * A new session also starts a new Linux scheduling autogroup, which costs a busy
   * request/response exchange much of its throughput. Ignored on Windows.
   */
  processGroup?: boolean;
  /**
   * Timers of the shutdown escalation and the waits around it: the protocol `Clock` (tests
   * pass a `SimulatedClock`). Those timers keep the process alive until the child is gone.
   */
  clock?: Clock;
  /** Diagnostic events (spawn, malformed lines, shutdown steps, exit). Exceptions are ignored. */
  onDiagnostic?: (event: StdioClientDiagnostic) => void;
  /**
   * Lines on the server's stdout that are not JSON (a stray `console.log` in the server) are
   * ignored by the protocol. `'warn'` (default) says so on this process's stderr: once with
   * the line's first bytes, then at most once a minute with a count. `'ignore'` stays silent
   * (`onDiagnostic` still receives every `malformed-line` event).
   */
  strayOutput?: StrayOutputMode;
}

/** Diagnostic events of {@link StdioClientTransport}, for logs and inspectors. */
export type StdioClientDiagnostic =
  | { type: 'spawned'; pid: number }
  /** A line from the server that was not JSON; `text` is cut to 1 KiB, `length` is the full size. */
  | { type: 'malformed-line'; text: string; length: number; reason: string }
  | { type: 'stdin-closed'; pid: number }
  | { type: 'signal'; signal: TreeSignal; pid: number }
  | { type: 'exit'; pid: number; exitCode: number | null; signal: NodeJS.Signals | null }
  | { type: 'stream-error'; stream: 'stdin' | 'stdout' | 'stderr'; error: Error }
  /** The process tree was still alive when the last wait ran out. */
  | { type: 'shutdown-incomplete'; pid: number };

/** Where the transport is in its life. */
export type StdioClientStatus = 'idle' | 'starting' | 'open' | 'closing' | 'closed';

