/** `pnpm demo:auth`: the OAuth walk-through on the terminal. */
import { runAuthTour } from './tour.js';

const ok = await runAuthTour((line) => process.stdout.write(`${line}\n`));
process.exitCode = ok ? 0 : 1;
