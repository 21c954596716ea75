/**
 * How a shutdown reaches a spawned server's whole process tree ({@link TreeControl}), in the
 * three ways a child can be spawned:
 *
 * - POSIX default: the child stays in this process's group; its tree is followed as a union
 *   of descendant snapshots (`descendant-tree.ts`).
 * - POSIX `processGroup: true`: the child is spawned `detached`, leads a new process group
 *   whose id is its pid, and wrappers (`npx`, `uvx`, shell scripts) start their real server
 *   in that same group, so signalling `-pid` reaches all of them. (A descendant that calls
 *   `setsid()` itself leaves the group and cannot be reached this way.)
 * - Windows: no process groups; `taskkill /T` walks the tree from the root, which works
 *   while the root is still alive.
 *
 * Exited processes whose parent has not collected them yet (zombies) hold no resources and
 * cannot be signalled further; on Linux they are not counted as alive here, because an
 * orphan may linger as a zombie for a while when PID 1 reaps lazily.
 *
 * `node:child_process` and `node:fs/promises` are loaded at first use, not at import: a server
 * process imports this package as well and never needs them.
 */
import type { ChildProcess } from 'node:child_process';

/** The signals the shutdown escalation uses. */
export type TreeSignal = 'SIGTERM' | 'SIGKILL';

/** A child's process tree, as the shutdown escalation sees it. */
export interface TreeControl {
  /** Records the tree as it is now, before stdin is closed (only the descendant mode needs it). */
  snapshot(): Promise<unknown>;
  /** Signals every live process of the tree; false when there was nothing left to signal. Never rejects. */
  signal(signal: TreeSignal): Promise<boolean>;
  /** True while a process of the tree other than a reaped root is alive (polled after the root exited). */
  isAlive(): Promise<boolean>;
  /** SIGTERM to the tree, synchronously (the parent-exit hook). */
  terminateTreeSync(): void;
}

/** POSIX `processGroup: true`: the tree is the process group the child leads. */
export function processGroupTree(pgid: number): TreeControl {
  return {
    snapshot: () => Promise.resolve(),
    signal: (signal) => {
      try {
        return Promise.resolve(signalProcessGroup(pgid, signal));
      } catch {
        return Promise.resolve(false);
      }
    },
    isAlive: () => isProcessGroupAlive(pgid),
    terminateTreeSync: () => process.kill(-pgid, 'SIGTERM'),
  };
}

/** Windows: `taskkill /T` from the root while it runs; after the root exited nothing is reachable. */
export function windowsTree(child: ChildProcess, pid: number, exited: () => boolean): TreeControl {
  return {
    snapshot: () => Promise.resolve(),
    signal: (signal) => (exited() ? Promise.resolve(false) : signalProcessTree(pid, signal, 'win32')),
    isAlive: () => Promise.resolve(false),
    terminateTreeSync: () => child.kill(),
  };
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/**
 * Sends `signal` (or the existence probe `0`) to process group `pgid`.
 * Returns false when the group no longer exists; true when at least one member was found.
 */
export function signalProcessGroup(pgid: number, signal: TreeSignal | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    // EPERM: a member exists that we may not signal (it changed its credentials).
    if (errorCode(error) === 'EPERM') return true;
    throw error;
  }
}

/** Linux `/proc/<pid>/stat`: the state letter and process group id, or undefined if gone. */
async function readLinuxStat(pid: string): Promise<{ state: string; pgrp: number } | undefined> {
  try {
    const { readFile } = await import('node:fs/promises');
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ..." — comm may contain spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    const pgrp = Number(rest[2]);
    if (state === undefined || !Number.isInteger(pgrp)) return undefined;
    return { state, pgrp };
  } catch {
    return undefined;
  }
}

function isDead(state: string): boolean {
  return state === 'Z' || state === 'X' || state === 'x';
}

/** True while any member of process group `pgid` is alive (zombies excluded on Linux). */
export async function isProcessGroupAlive(pgid: number, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (platform === 'win32') return false;
  if (!signalProcessGroup(pgid, 0)) return false;
  if (platform !== 'linux') return true;
  let entries: string[];
  try {
    const { readdir } = await import('node:fs/promises');
    entries = await readdir('/proc');
  } catch {
    return true;
  }
  const stats = await Promise.all(entries.filter((name) => /^\d+$/.test(name)).map((name) => readLinuxStat(name)));
  return stats.some((stat) => stat !== undefined && stat.pgrp === pgid && !isDead(stat.state));
}

/** True while process `pid` is alive (zombies excluded on Linux). */
export async function isProcessAlive(pid: number, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (errorCode(error) === 'EPERM') return true;
    return false;
  }
  if (platform !== 'linux') return true;
  const stat = await readLinuxStat(String(pid));
  return stat !== undefined && !isDead(stat.state);
}

/**
 * Signals the tree rooted at `pid`: the process group on POSIX, `taskkill /T` on Windows
 * (`/F` for `SIGKILL`). Resolves once the signal was delivered (Windows: once `taskkill`
 * finished); never rejects. Returns false when there was nothing left to signal.
 */
export async function signalProcessTree(
  pid: number,
  signal: TreeSignal,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  if (platform !== 'win32') {
    try {
      return signalProcessGroup(pid, signal);
    } catch {
      return false;
    }
  }
  const args = ['/PID', String(pid), '/T'];
  if (signal === 'SIGKILL') args.push('/F');
  const { spawn } = await import('node:child_process');
  return new Promise<boolean>((resolve) => {
    try {
      const killer = spawn('taskkill', args, { stdio: 'ignore', windowsHide: true });
      killer.once('error', () => resolve(false));
      killer.once('exit', (code) => resolve(code === 0));
    } catch {
      resolve(false);
    }
  });
}
