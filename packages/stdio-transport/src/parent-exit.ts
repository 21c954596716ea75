/**
 * If this process exits while children still run, they would outlive it: a child in its own
 * process group (`processGroup: true`) gets no terminal signal, and a wrapper's grandchild
 * is not signalled by anyone. An exit hook sends SIGTERM to each tracked child's tree. The
 * 'exit' event runs synchronously, so each child says how to reach its tree synchronously:
 * its process group, its descendants read from `/proc` (Linux) or `ps` (macOS/BSD), or the
 * child itself (Windows).
 */

/** What the hook needs to know of a live child. */
export interface LiveChild {
  /** Sends SIGTERM to the child's tree, synchronously; never throws. */
  terminateTreeSync(): void;
}

/** Children to signal if this process exits while they run. */
const liveChildren = new Set<LiveChild>();
let exitHookInstalled = false;

/** Signals `handle`'s tree if this process exits before {@link untrackLiveChild}. */
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
      handle.terminateTreeSync();
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
