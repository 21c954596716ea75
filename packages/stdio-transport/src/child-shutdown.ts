/**
 * The shutdown escalation of a spawned server (MCP 2025-11-25 basic/lifecycle §Shutdown),
 * applied to its whole process tree: close stdin, wait; SIGTERM, wait; SIGKILL, wait — each
 * wait ending early once no process of the tree is left. The transport decides when to shut
 * down and what to report; this module is how.
 */
import type { ChildProcess } from 'node:child_process';
import type { Clock } from '@statemcp/protocol';
import type { FrameWriter } from './frame-writer.js';
import type { LineFramer } from './line-framer.js';
import type { TreeControl, TreeSignal } from './process-tree.js';
import type { StdioClientDiagnostic } from './stdio-client-options.js';
import { delay, settleWithin } from './timeouts.js';

const DEFAULT_CLOSE_TIMEOUT_MS = 2000;
const DEFAULT_TERMINATE_TIMEOUT_MS = 2000;
const DEFAULT_KILL_TIMEOUT_MS = 2000;
/** How often an exited child's tree is checked for survivors. */
const GROUP_POLL_INTERVAL_MS = 20;

/** How a child process ended. */
export interface ExitInfo {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** Everything that exists only while a child process does. */
export interface ChildHandle {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly writer: FrameWriter;
  readonly framer: LineFramer;
  /** How shutdown reaches the child's descendants (see `process-tree.ts`). */
  readonly tree: TreeControl;
  exit: ExitInfo | undefined;
  readonly exited: Promise<ExitInfo>;
  /** Set once this side signalled the tree: an exit after that is our doing, not a crash. */
  signalled: boolean;
  stdoutEnded: boolean;
  /** Resolves when both stdout and stderr have ended (everything the child wrote was read). */
  readonly outputDone: Promise<void>;
}

/** The waits of the escalation (ms; 2000 each by default) and where its steps are reported. */
export interface ShutdownSettings {
  readonly clock: Clock;
  readonly closeTimeoutMs?: number | undefined;
  readonly terminateTimeoutMs?: number | undefined;
  readonly killTimeoutMs?: number | undefined;
  readonly diagnostic: (event: StdioClientDiagnostic) => void;
}

/** Sends `signal` to the child's whole tree; from then on its exit is not a crash. */
export async function signalTree(handle: ChildHandle, signal: TreeSignal, settings: ShutdownSettings): Promise<void> {
  handle.signalled = true;
  settings.diagnostic({ type: 'signal', signal, pid: handle.pid });
  await handle.tree.signal(signal);
}

/**
 * Runs the escalation until the tree is gone or the last wait ran out (reported as
 * `shutdown-incomplete`). Rejects only when a step itself fails; the caller cleans up either way.
 */
export async function escalateShutdown(handle: ChildHandle, settings: ShutdownSettings): Promise<void> {
  // Before stdin closes, while a wrapper still runs: its children are found by parentage.
  await handle.tree.snapshot();
  handle.writer.end();
  settings.diagnostic({ type: 'stdin-closed', pid: handle.pid });
  let gone = await waitTreeGone(handle, settings.clock, settings.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
  if (!gone) {
    await signalTree(handle, 'SIGTERM', settings);
    gone = await waitTreeGone(handle, settings.clock, settings.terminateTimeoutMs ?? DEFAULT_TERMINATE_TIMEOUT_MS);
  }
  if (!gone) {
    await signalTree(handle, 'SIGKILL', settings);
    gone = await waitTreeGone(handle, settings.clock, settings.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS);
  }
  if (!gone) settings.diagnostic({ type: 'shutdown-incomplete', pid: handle.pid });
}

/**
 * Waits up to `timeoutMs` for the child to exit (event-driven) and then for every other
 * process of its tree to vanish (polled: they are not our children).
 */
async function waitTreeGone(handle: ChildHandle, clock: Clock, timeoutMs: number): Promise<boolean> {
  const deadline = clock.now() + timeoutMs;
  if (handle.exit === undefined) {
    const exited = await settleWithin(clock, handle.exited, timeoutMs);
    if (!exited) return false;
  }
  for (;;) {
    if (!(await handle.tree.isAlive())) return true;
    const left = deadline - clock.now();
    if (left <= 0) return false;
    await delay(clock, Math.min(GROUP_POLL_INTERVAL_MS, left));
  }
}
