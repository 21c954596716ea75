// Summarises a V8 .cpuprofile: self time per function (and per package), top N.
//   node profile-summary.mjs file.cpuprofile [N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const inclusive = args.includes('--inclusive');
const [file, topArg] = args.filter((a) => !a.startsWith('--'));
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
/** A frame's file, short: `client/index.js` for a statemcp package's bundled `dist` (each package has its own `index.js`). */
const shortUrl = (url) =>
  url
    .replace(/^.*\/(?:packages|@statemcp)\/([^/]+)\/dist\//, '$1/')
    .replace(/^.*\/dist\//, '')
    .replace(/^file:\/\//, '');
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const perFn = new Map();
const perPkg = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const where = shortUrl(f.url);
  const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
  perFn.set(key, (perFn.get(key) ?? 0) + us);
  const pkg = f.url === '' ? f.functionName : where.replace(/:\d+$/, '');
  perPkg.set(pkg, (perPkg.get(pkg) ?? 0) + us);
}
const show = (map, n) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(([k, us]) => console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`));
console.log(`total ${(total / 1000).toFixed(0)} ms`);
if (!inclusive) {
  show(perFn, top);
} else {
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const incl = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const key = label(byId.get(id));
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + (dt[i] ?? 0));
    }
  }
  show(incl, top);
}
