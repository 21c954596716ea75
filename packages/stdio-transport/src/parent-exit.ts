/**
 * Children are spawned detached (their own process group, so the whole tree can be
 * signalled). If this process exits while some still run, they would outlive it: an exit
 * hook sends each group SIGTERM (the child itself on Windows).
 */
import type { ChildProcess } from 'node:child_process';

/** What the hook needs to know of a live child. */
export interface LiveChild {
  readonly child: ChildProcess;
  readonly pid: number;
}

const isWindows = process.platform === 'win32';

/** Children to signal if this process exits while they run (they were spawned detached). */
const liveChildren = new Set<LiveChild>();
let exitHookInstalled = false;

/** Signals `handle`'s process group if this process exits before {@link untrackLiveChild}. */
export function trackLiveChild(handle: LiveChild): void {
  if (!exitHookInstalled) {
    process.on('exit', onParentExit);
    exitHookInstalled = true;
  }
  liveChildren.add(handle);
}

function onParentExit(): void {
  for (const handle of liveChildren) {
    try {
      if (isWindows) handle.child.kill();
      else process.kill(-handle.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  liveChildren.clear();
}

/** The child is gone (or being shut down by its transport): the exit hook leaves it alone. */
export function untrackLiveChild(handle: LiveChild): void {
  liveChildren.delete(handle);
}
