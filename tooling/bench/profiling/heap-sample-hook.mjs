// Loaded with `--import` into a stdio server by alloc-stdio.mjs: on SIGUSR2 starts V8's sampling heap
// profiler (objects collected by GCs kept) and counts GCs; at exit prints the top allocating functions
// and the GC count to stderr, divided by HEAP_SAMPLE_UNITS (the calls the parent made meanwhile).
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { printSites } from './alloc-report.mjs';

const session = new Session();
let gcs = 0;
const observer = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
process.on('SIGUSR2', () => {
  session.connect();
  session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
  observer.observe({ entryTypes: ['gc'] });
});
process.on('exit', () => {
  // A session on the main thread answers synchronously, so the profile is read before the exit.
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) return;
    printSites('server', result.profile, Number(process.env.HEAP_SAMPLE_UNITS), gcs, (line) => process.stderr.write(`${line}\n`));
  });
});
