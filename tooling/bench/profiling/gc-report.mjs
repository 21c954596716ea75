// Shared by gc-stdio.mjs and child-gc-hook.mjs: a GCProfiler profile in one line.

/** Scavenges (minor GCs), their summed pause, and how much the old space grew across them (what they promoted). */
export function summarizeScavenges(profile) {
  const oldSpace = (heap) => heap.heapSpaceStatistics.find((space) => space.spaceName === 'old_space').spaceUsedSize;
  let count = 0;
  let us = 0;
  let promoted = 0;
  for (const gc of profile.statistics) {
    if (gc.gcType !== 'Scavenge') continue;
    count += 1;
    us += gc.cost;
    promoted += oldSpace(gc.afterGC) - oldSpace(gc.beforeGC);
  }
  return `${count} scavenges, ${(us / 1000).toFixed(1)} ms, old space +${(promoted / 1e6).toFixed(2)} MB across them`;
}
