// Loaded into a server child by child-stamps.mjs (`--import`): stamps taken inside the child and
// written to fd 2 (writeSync: no process.stderr created, nothing queued) — at the first stdout write
// (the `initialize` answer) the ms since the process started and its CPU ms so far; at 'exit' the µs (wall, then CPU)
// since stdin's 'end'. Touching process.stdin and process.stdout here creates them a little earlier
// than the server would; every server measured pays that alike.
import { writeSync } from 'node:fs';

const stdout = process.stdout;
const write = stdout.write;
let answered = false;
stdout.write = function (...args) {
  if (!answered) {
    answered = true;
    const cpu = process.cpuUsage();
    writeSync(2, `STAMP answer ${performance.now().toFixed(2)} ${((cpu.user + cpu.system) / 1000).toFixed(2)}\n`);
  }
  return write.apply(this, args);
};
let ended;
let endedCpu;
process.stdin.once('end', () => {
  ended = performance.now();
  endedCpu = process.cpuUsage();
});
process.on('exit', () => {
  if (ended === undefined) return;
  const cpu = process.cpuUsage(endedCpu);
  writeSync(2, `STAMP exit ${((performance.now() - ended) * 1000).toFixed(0)} ${cpu.user + cpu.system}\n`);
});
