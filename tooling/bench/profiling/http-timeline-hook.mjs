// Loaded with `--import` into an HTTP fixture by `http-call-timeline.mjs`: stamps (µs of the
// monotonic clock, shared by every process of the machine) at each request head parsed, each
// `writeHead`, and each write to a TCP socket. SIGUSR2 starts over (after the warm-up); SIGTERM
// writes the stamps as JSON to TIMELINE_OUT and exits.
import dc from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Socket } from 'node:net';

const stamps = [];
const now = () => Number(process.hrtime.bigint() / 1000n);
dc.subscribe('http.server.request.start', () => stamps.push(['serverHead', now()]));
const writeHead = ServerResponse.prototype.writeHead;
ServerResponse.prototype.writeHead = function (...args) {
  stamps.push(['serverWriteHead', now()]);
  return writeHead.apply(this, args);
};
for (const method of ['_writev', '_write']) {
  const write = Socket.prototype[method];
  Socket.prototype[method] = function (...args) {
    if (typeof this.remotePort === 'number') stamps.push(['serverWrite', now()]);
    return write.apply(this, args);
  };
}
process.on('SIGUSR2', () => void (stamps.length = 0));
process.on('SIGTERM', () => {
  writeFileSync(process.env.TIMELINE_OUT, JSON.stringify(stamps));
  process.exit(0);
});
