/**
 * Bytes a stretch of code allocates on the V8 heap, counted rather than sampled: the used heap
 * at the end minus at the start, plus what every garbage collection in between freed
 * (`v8.GCProfiler` reports the used heap before and after each one). Objects that die young
 * are counted too, so a per-call figure is the whole allocation of a call (both sides when
 * client and server share the process), not what survives it.
 *
 * Checked against V8's sampling heap profiler with objects collected by minor and major GCs
 * kept in the profile (`HeapProfiler.startSampling`, `includeObjectsCollectedByMinorGC` /
 * `…MajorGC`): the two agree within a few per cent on the in-memory echo loop, and both
 * match a loop allocating strings of known size.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { fullGc } from './spec.js';

/** Runs `op` and returns the bytes allocated on the V8 heap meanwhile (a full GC first). */
export async function allocatedBytes(op: () => Promise<void>): Promise<number> {
  fullGc();
  const profiler = new GCProfiler();
  profiler.start();
  const start = getHeapStatistics().used_heap_size;
  await op();
  const end = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let freed = 0;
  for (const gc of statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  return end - start + freed;
}
