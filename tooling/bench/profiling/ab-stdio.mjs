// A/B of stdio builds over real processes: runs `seq.mjs CALLS IN_FLIGHT` from each snapshot dir
// (`snapshot-dist.sh DIR`), alternating the dirs PAIRS times, so load from other processes hits
// both alike. Prints each run, then per dir the median client and server CPU µs/call and calls/s,
// and the median of the paired ratios (dir ÷ first dir).
//   node ab-stdio.mjs PAIRS CALLS IN_FLIGHT dirA dirB …
import { execFileSync } from 'node:child_process';

const [pairs, calls, inFlight, ...dirs] = process.argv.slice(2);
if (dirs.length < 2) throw new Error('usage: node ab-stdio.mjs PAIRS CALLS IN_FLIGHT dirA dirB …');
const pattern = /: (\d+) calls\/s, client CPU ([\d.]+) µs\/call, server CPU ([\d.]+) µs\/call/;
const runs = dirs.map(() => []);
for (let round = 0; round < Number(pairs); round++) {
  for (const [index, dir] of dirs.entries()) {
    const out = execFileSync(process.execPath, ['seq.mjs', calls, inFlight], { cwd: dir, encoding: 'utf8' });
    const match = pattern.exec(out);
    if (match === null) throw new Error(`unexpected output from ${dir}: ${out}`);
    const [rate, client, server] = match.slice(1).map(Number);
    runs[index].push({ rate, client, server });
    console.log(`${dir}: ${rate} calls/s, client ${client} µs, server ${server} µs`);
  }
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
for (const [index, dir] of dirs.entries()) {
  const column = (key) => runs[index].map((run) => run[key]);
  const ratio = (key) => median(runs[index].map((run, round) => run[key] / runs[0][round][key])).toFixed(3);
  console.log(
    `${dir}: median ${median(column('rate'))} calls/s, client ${median(column('client')).toFixed(1)} µs, server ${median(column('server')).toFixed(1)} µs` +
      (index === 0 ? '' : ` | paired ratio ÷ ${dirs[0]}: calls/s ${ratio('rate')}, client ${ratio('client')}, server ${ratio('server')}`),
  );
}
