// Entry point of the everything server; see serve.ts for the command line.
import { run } from './serve.js';

await run(process.argv.slice(2));
