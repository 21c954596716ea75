// Runs the `statemcp` command from source (tests start it with node --import tsx).
import { main } from '../src/cli.js';

process.exitCode = await main(process.argv.slice(2));
