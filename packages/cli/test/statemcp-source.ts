// Runs the `statemcp` command from source (the tests start it bundled, test/dev-harness.ts).
import { main } from '../src/cli.js';

process.exitCode = await main(process.argv.slice(2));
