// Inclusive time of each module's top-level evaluation in a .cpuprofile (what importing it cost,
// its own imports' evaluation included), plus named functions matching a pattern — for the
// cold-start profiles of `CHILD_NODE_FLAGS="--cpu-prof …" node cold-start.mjs 1 server.mjs`.
//   node cold-start-shares.mjs file.cpuprofile ['answerInitialize|^realize|registerTool'] [N]
import { readFileSync } from 'node:fs';

const [file, pattern, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const match = pattern ? new RegExp(pattern) : undefined;
const shortUrl = (url) => url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(packages|tooling)\//, '$1/');
const inclusive = new Map();
for (const [id, us] of self) {
  const counted = new Set();
  for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) {
    const frame = byId.get(cur).callFrame;
    const topLevel = frame.functionName === '' && frame.lineNumber === 0;
    let key;
    if (topLevel) key = `module ${shortUrl(frame.url)}`;
    else if (match?.test(frame.functionName)) key = `${frame.functionName}  ${frame.url.replace(/^.*\//, '')}:${frame.lineNumber + 1}`;
    if (key === undefined || counted.has(key)) continue;
    counted.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
console.log(`total ${(total / 1000).toFixed(1)} ms`);
for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 30))) {
  console.log(`${(us / 1000).toFixed(1).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
}
