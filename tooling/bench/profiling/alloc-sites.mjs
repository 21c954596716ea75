// Where the in-memory rows allocate: V8's sampling heap profiler with the objects that minor and
// major GCs collected kept in the profile, over N units of memory.mjs's loop; prints the top
// allocating functions (self bytes per unit).   node --expose-gc alloc-sites.mjs handshake|seq|modern [N]
import { Session } from 'node:inspector/promises';

const [mode = 'seq', nArg] = process.argv.slice(2);
const n = Number(nArg ?? (mode === 'handshake' ? 2000 : 20000));
process.env.MEMORY_MJS_NO_MAIN = '1';
const { setUp } = await import('./memory.mjs');
const { unit, done } = await setUp(mode);
for (let i = 0; i < Math.ceil(n / 5); i++) await unit();
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
for (let i = 0; i < n; i++) await unit();
const { profile } = await session.post('HeapProfiler.stopSampling');
await done();
const self = new Map();
const walk = (node) => {
  const f = node.callFrame;
  const key = `${f.functionName || '(anonymous)'}  ${f.url.replace(/^.*\/(packages|node_modules)\//, '').replace('/dist/index.js', '')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head);
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`${mode}: ${(total / n).toFixed(0)} B sampled per unit`);
for (const [key, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) console.log(`${(bytes / n).toFixed(0).padStart(7)} B  ${key}`);
