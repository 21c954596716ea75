/**
 * A spawned server's process tree, followed without a process group of its own (the default
 * on POSIX: the child stays in this process's group and session, as the official SDKs spawn
 * it, so that it shares this process's scheduling group rather than starting a new one).
 *
 * Membership is a union of snapshots that only grows: each snapshot adds every process whose
 * parent is the root or a member. A grandchild whose parent exited is reparented (to PID 1
 * or a subreaper) and no longer descends from the root, but it stays in the union once seen.
 * On Linux a snapshot taken after the root exited (and every snapshot of the SIGTERM and
 * SIGKILL steps) also adds every process that holds the child's end of its stdin or stdout:
 * the real server behind a wrapper that exited before any snapshot (`npx`-like launchers)
 * still talks over them. While the root runs, parentage alone finds its tree, so a graceful
 * close reads no descriptors: on Linux it follows each member's `/proc/<pid>/task/<tid>/children`
 * lists down the tree (a few reads for a server without children) and walks all of `/proc` only
 * when the kernel has no such files (`CONFIG_PROC_CHILDREN`) or the pipe holders are wanted.
 * Each member is remembered with its start time, so a recycled pid is never signalled
 * (macOS/BSD: `ps`'s `lstart`).
 *
 * Linux reads `/proc` synchronously (in-memory files: faster than the thread pool); macOS
 * and the BSDs run `ps -A -o pid=,ppid=,stat=,lstart=`, synchronously only in the parent-exit
 * hook. Zombies are not alive.
 */
import type * as ChildProcessModule from 'node:child_process';
import type * as FsModule from 'node:fs';
import type { TreeControl, TreeSignal } from './process-tree.js';

/** One process as a scan saw it. */
interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  /** Start time: with the pid, the identity of a process. */
  readonly start: string;
  readonly dead: boolean;
}

interface SyncModules {
  readonly fs: typeof FsModule;
  readonly childProcess: typeof ChildProcessModule;
}

const isLinux = process.platform === 'linux';

function parseLinuxStat(pid: number, stat: string): ProcessEntry | undefined {
  // "pid (comm) state ppid pgrp session tty tpgid flags … starttime(22nd field) …"; comm may contain ") ".
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = rest[0];
  const ppid = Number(rest[1]);
  const start = rest[19];
  if (state === undefined || start === undefined || !Number.isInteger(ppid)) return undefined;
  return { pid, ppid, start, dead: state === 'Z' || state === 'X' || state === 'x' };
}

const PS_LINE = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/;

function parsePs(output: string): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const line of output.split('\n')) {
    const match = PS_LINE.exec(line);
    if (match === null) continue;
    const [, pid = '', ppid = '', stat = '', start = ''] = match;
    entries.push({ pid: Number(pid), ppid: Number(ppid), start, dead: stat.startsWith('Z') });
  }
  return entries;
}

const PS_ARGS = ['-A', '-o', 'pid=,ppid=,stat=,lstart='];

/**
 * Every process of the machine. Linux reads `/proc` synchronously: the files live in memory,
 * so reading them in a loop is several times faster than through the thread pool (the walk
 * is the fallback where the kernel lists no children, and
 * the escalation's way to the pipe holders).
 */
async function scan(sync: SyncModules): Promise<ProcessEntry[]> {
  if (isLinux) return scanSync(sync);
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('ps', PS_ARGS, { windowsHide: true }, (error, stdout) => resolve(error === null ? parsePs(stdout) : []));
  });
}

/** The synchronous scan (the parent-exit hook's, and every scan on Linux; modules are loaded at spawn). */
function scanSync({ fs, childProcess }: SyncModules): ProcessEntry[] {
  try {
    if (!isLinux) return parsePs(childProcess.execFileSync('ps', PS_ARGS, { encoding: 'utf8', windowsHide: true }));
    const entries: ProcessEntry[] = [];
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const entry = parseLinuxStat(Number(name), fs.readFileSync(`/proc/${name}/stat`, 'utf8'));
        if (entry !== undefined) entries.push(entry);
      } catch {
        // Exited meanwhile.
      }
    }
    return entries;
  } catch {
    return [];
  }
}

/**
 * Linux: `seeds` and their descendants, found through each thread's `children` list (a child is
 * listed under the thread that forked it), without walking `/proc`. Undefined when the kernel
 * has no `children` files; a process that exits meanwhile is left out. A thread's list is read
 * from that thread's own directory (see {@link readChildren}), so a child found there must name
 * the process as its parent: a thread id reused meanwhile cannot add a stranger.
 */
function scanDescendants(fs: typeof FsModule, seeds: Iterable<number>): ProcessEntry[] | undefined {
  if (!hasChildrenLists(fs)) return undefined;
  const entries: ProcessEntry[] = [];
  const queue = [...new Set(seeds)];
  const seen = new Set(queue);
  /** Children read through another thread's directory, with the process that listed them. */
  const listedBy = new Map<number, number>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    try {
      const entry = parseLinuxStat(next, fs.readFileSync(`/proc/${next}/stat`, 'utf8'));
      if (entry === undefined) continue;
      const parent = listedBy.get(next);
      if (parent !== undefined && entry.ppid !== parent) continue;
      entries.push(entry);
      if (entry.dead) continue;
      for (const tid of fs.readdirSync(`/proc/${next}/task`)) {
        for (const child of readChildren(fs, next, tid)) {
          if (seen.has(child)) continue;
          seen.add(child);
          if (tid !== String(next)) listedBy.set(child, next);
          queue.push(child);
        }
      }
    } catch {
      // Exited meanwhile.
    }
  }
  return entries;
}

/**
 * One thread's children, read as `/proc/<tid>/task/<tid>/children` (the same list as
 * `/proc/<pid>/task/<tid>/children`). Files opened under the process's own `task/<tid>`
 * directories made reaping the process cost its parent ≈3 ms more CPU in `wait4` (Linux 6.18,
 * a Node server of 11 threads; tooling/bench/profiling/README.md, "s23-shutdown"), on the path
 * of every graceful close; through each thread's own directory they cost nothing measurable.
 */
function readChildren(fs: typeof FsModule, pid: number, tid: string): number[] {
  try {
    return fs
      .readFileSync(tid === String(pid) ? `/proc/${pid}/task/${tid}/children` : `/proc/${tid}/task/${tid}/children`, 'utf8')
      .split(' ')
      .filter((text) => text.length > 0)
      .map(Number);
  } catch {
    return []; // The thread exited meanwhile.
  }
}

let childrenLists: boolean | undefined;

/** Whether this kernel lists each thread's children (`CONFIG_PROC_CHILDREN`); checked once, on this process's main thread. */
function hasChildrenLists(fs: typeof FsModule): boolean {
  childrenLists ??= fs.existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  return childrenLists;
}

/** Linux: the pids (other than this one) holding any of `pipes` (`/proc/<pid>/fd` link texts) open. */
async function pipeHolders(entries: readonly ProcessEntry[], pipes: ReadonlySet<string>): Promise<Set<number>> {
  const holders = new Set<number>();
  if (!isLinux || pipes.size === 0) return holders;
  const { readdir, readlink } = await import('node:fs/promises');
  await Promise.all(
    entries.map(async ({ pid, dead }) => {
      if (dead || pid === process.pid) return;
      // Another user's processes answer EACCES: they cannot be ours.
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
      for (const fd of fds) {
        const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => undefined);
        if (link !== undefined && pipes.has(link)) {
          holders.add(pid);
          return;
        }
      }
    }),
  );
  return holders;
}

/**
 * Linux: what the child's stdin and stdout are (`socket:[inode]` texts: node connects a
 * child's stdio through socket pairs). Whoever holds one of these holds the child's end.
 */
function stdioLinks(fs: typeof FsModule, root: number): Set<string> {
  const links = new Set<string>();
  for (const fd of [0, 1]) {
    try {
      const link = fs.readlinkSync(`/proc/${root}/fd/${fd}`);
      if (link.startsWith('socket:') || link.startsWith('pipe:')) links.add(link);
    } catch {
      // Gone already, or no /proc: no stdio tracking.
    }
  }
  return links;
}

/** The union of a child's descendants seen so far (see the module comment). */
export class DescendantTree implements TreeControl {
  readonly #root: number;
  readonly #pipes: ReadonlySet<string>;
  /** pid → start time of every process seen in the tree, the root included. */
  readonly #members = new Map<number, string>();
  /** Loaded at spawn: the parent-exit hook runs synchronously and cannot import. */
  readonly #sync: SyncModules;

  private constructor(root: number, pipes: ReadonlySet<string>, sync: SyncModules) {
    this.#root = root;
    this.#pipes = pipes;
    this.#sync = sync;
  }

  /**
   * The tree of a child just spawned. On Linux the root's start time and its stdio sockets
   * are read now (three small synchronous reads), while the child surely runs; elsewhere the
   * root's start time is learnt at the first snapshot.
   */
  static async forChild(root: number): Promise<DescendantTree> {
    const [fs, childProcess] = await Promise.all([import('node:fs'), import('node:child_process')]);
    const tree = new DescendantTree(root, isLinux ? stdioLinks(fs, root) : new Set(), { fs, childProcess });
    if (isLinux) {
      try {
        const entry = parseLinuxStat(root, fs.readFileSync(`/proc/${root}/stat`, 'utf8'));
        if (entry !== undefined) tree.#members.set(root, entry.start);
      } catch {
        // Already gone: its descendants can still be found through the pipes.
      }
    }
    return tree;
  }

  /** Adds the current descendants of the root and of every member (and, once the root has exited, the pipe holders); returns the live members. */
  snapshot(): Promise<number[]> {
    return this.#scan('orphaned');
  }

  /**
   * `holders`: `always` reads every process's descriptors (the escalation: slow is fine there);
   * `orphaned` only when the root has exited, the one case where parentage cannot lead to what
   * it left behind (while the root runs, its whole tree descends from it). Reading every
   * descriptor costs tens of milliseconds on a busy desktop, too much for every graceful close.
   */
  async #scan(holders: 'always' | 'orphaned' | 'never'): Promise<number[]> {
    if (holders !== 'always') {
      const tree = this.#descendants();
      if (tree !== undefined && (holders === 'never' || this.#rootAliveIn(tree))) return this.#merge(tree, new Set());
    }
    const entries = await scan(this.#sync);
    const wanted = holders === 'always' || (holders === 'orphaned' && !this.#rootAliveIn(entries));
    const extra = wanted ? await pipeHolders(entries, this.#pipes) : new Set<number>();
    return this.#merge(entries, extra);
  }

  /** Linux with `children` lists: the members (the root included) and their descendants; else undefined. */
  #descendants(): ProcessEntry[] | undefined {
    return isLinux ? scanDescendants(this.#sync.fs, [this.#root, ...this.#members.keys()]) : undefined;
  }

  #rootAliveIn(entries: readonly ProcessEntry[]): boolean {
    const root = entries.find((entry) => entry.pid === this.#root);
    const start = this.#members.get(this.#root);
    return root !== undefined && !root.dead && (start === undefined || start === root.start);
  }

  /** Snapshots with pipe holders and sends `signal` to every live member. False when none was left. */
  async signal(signal: TreeSignal): Promise<boolean> {
    return signalAll(await this.#scan('always'), signal);
  }

  /**
   * True while a member is alive; the snapshot also picks up children the members started
   * meanwhile. When no member answers a null signal the tree is gone without a scan: the
   * usual end of a graceful close (the server exited and left nothing) costs no `/proc` walk.
   * The root is not asked: this runs once its exit was reported, so it is reaped (a null
   * signal to it would only fail, or reach whoever got its pid since).
   */
  async isAlive(): Promise<boolean> {
    if (![...this.#members.keys()].some((pid) => pid !== this.#root && answersSignal(pid))) return false;
    return (await this.#scan('never')).length > 0;
  }

  /** Synchronous SIGTERM for the parent-exit hook (no pipe holders: reading every fd would hold up the exit). */
  terminateTreeSync(): void {
    signalAll(this.#merge(this.#descendants() ?? scanSync(this.#sync), new Set()), 'SIGTERM');
  }

  #merge(entries: readonly ProcessEntry[], holders: ReadonlySet<number>): number[] {
    const byPid = new Map(entries.map((entry) => [entry.pid, entry]));
    const root = byPid.get(this.#root);
    // The root's start time is learnt at the first scan that sees it; after that it identifies it.
    if (root !== undefined && !root.dead && !this.#members.has(this.#root)) this.#members.set(this.#root, root.start);
    for (const pid of holders) {
      const entry = byPid.get(pid);
      if (entry !== undefined) this.#members.set(pid, entry.start);
    }
    const isMember = (entry: ProcessEntry | undefined): boolean => entry !== undefined && this.#members.get(entry.pid) === entry.start;
    // Parents before children is not guaranteed by pid order: repeat until nothing is added.
    for (let added = true; added; ) {
      added = false;
      for (const entry of entries) {
        if (this.#members.has(entry.pid) || entry.pid === process.pid) continue;
        if (isMember(byPid.get(entry.ppid))) {
          this.#members.set(entry.pid, entry.start);
          added = true;
        }
      }
    }
    const live: number[] = [];
    for (const [pid, start] of this.#members) {
      const entry = byPid.get(pid);
      if (entry !== undefined && entry.start === start && !entry.dead) live.push(pid);
    }
    return live;
  }
}

function signalAll(pids: readonly number[], signal: TreeSignal): boolean {
  let any = false;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      any = true;
    } catch {
      // Exited meanwhile (ESRCH) or no longer ours (EPERM): nothing to do.
    }
  }
  return any;
}

/** True while `pid` exists (a zombie or another user's process included: the scan decides those). */
function answersSignal(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM';
  }
}
