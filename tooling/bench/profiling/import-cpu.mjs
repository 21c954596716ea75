// CPU of importing modules in a fresh process, after zod (classic, as a user's server module
// loads it first): each run spawns `node`, imports zod and builds one schema, then times
// `import()` of the given specifiers in order with process.cpuUsage() (all threads: the loader's
// file reads run on the thread pool). Several lists alternate, one process each per round;
// median and p25–p75 of the CPU ms per list. A list is specifiers joined by `+`; a specifier is
// a package name resolved from this folder or an absolute file (a snapshot's `dist` from
// `snapshot-dist.sh`, to compare two builds).
//   node import-cpu.mjs N '@statemcp/server+@statemcp/stdio-transport' /tmp/a/node_modules/@statemcp/server/dist/index.js …
import { execFileSync } from 'node:child_process';

const [n, ...lists] = process.argv.slice(2);
if (lists.length === 0) throw new Error("usage: node import-cpu.mjs N 'specifier[+specifier…]' …");
const program = (specifiers) => `
const { z } = await import('zod');
z.object({ text: z.string() });
const before = process.cpuUsage();
for (const specifier of ${JSON.stringify(specifiers.split('+'))}) await import(specifier);
const used = process.cpuUsage(before);
console.log((used.user + used.system) / 1000);`;

const runs = lists.map(() => []);
for (let round = 0; round < Number(n); round++) {
  const order = [...lists.keys()];
  if (round % 2 === 1) order.reverse();
  for (const index of order) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program(lists[index])], { cwd: import.meta.dirname });
    runs[index].push(Number(out.toString()));
  }
}
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
for (const [index, list] of lists.entries()) {
  const values = runs[index];
  console.log(`${list}: ${quantile(values, 0.5).toFixed(2)} ms (${quantile(values, 0.25).toFixed(2)}–${quantile(values, 0.75).toFixed(2)})`);
}
