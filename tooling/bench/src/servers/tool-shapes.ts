/**
 * The zod input shapes of the benchmark tools, as a user's server module declares them. The
 * statemcp server registers them; the `raw-zod` floor only builds them, so its start-up holds
 * what a zod-declaring user pays before any SDK code runs.
 */
import { z } from 'zod';
import { MANY_TOOLS } from '../spec.js';

export const echoShape = () => ({ text: z.string() });
export const bigShape = () => ({ bytes: z.number().int().nonnegative() });
export const listShape = () => ({ query: z.string(), limit: z.number().int().optional() });

/** Every shape a server with these options builds at start-up (the extra tools' shapes with `manyTools`). */
export function allToolShapes(manyTools: boolean): Record<string, z.ZodType>[] {
  const shapes: Record<string, z.ZodType>[] = [echoShape(), bigShape()];
  if (manyTools) for (let i = 0; i < MANY_TOOLS; i++) shapes.push(listShape());
  return shapes;
}
