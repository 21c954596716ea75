// Loaded with `--import` into a stdio server by gc-stdio.mjs: on SIGUSR2 starts V8's GC profiler; at exit
// prints the child's scavenges, their time and what they moved to the old generation, to stderr.
import { GCProfiler } from 'node:v8';
import { summarizeScavenges } from './gc-report.mjs';

const profiler = new GCProfiler();
process.on('SIGUSR2', () => profiler.start());
process.on('exit', () => {
  const profile = profiler.stop();
  if (profile !== undefined) process.stderr.write(`server: ${summarizeScavenges(profile)}\n`);
});
