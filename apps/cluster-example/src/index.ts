// Entry point of the cluster example; see main.ts for the command line.
import { run } from './main.js';

await run(process.argv.slice(2));
