// The raw floor plus what a zod-declaring user's module pays before any SDK code: `import 'zod'`
// and the two tools' shapes built (as server-dist.mjs declares them), nothing else.
import { z } from 'zod';
import './server-raw.mjs';

const shapes = [{ text: z.string() }, { bytes: z.number().int().nonnegative() }];
if (shapes.length !== 2) throw new Error('unreachable');
