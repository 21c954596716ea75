// `pnpm demo`: the quickstart tour (see tour.ts). Exits 0 when both transports went through the
// whole lifecycle.
import { runQuickstart } from './tour.js';

const started = performance.now();
const ok = await runQuickstart();
console.log('');
console.log(ok ? `quickstart finished in ${((performance.now() - started) / 1000).toFixed(1)} s` : 'quickstart FAILED');
process.exitCode = ok ? 0 : 1;
