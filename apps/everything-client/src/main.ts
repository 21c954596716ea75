// Entry point of the conformance client; see run.ts for the command line.
import { run } from './run.js';

process.exitCode = await run({
  argv: process.argv.slice(2),
  env: process.env,
  log: (line) => process.stderr.write(`[everything-client] ${line}\n`),
});
