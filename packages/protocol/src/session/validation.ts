/**
 * Turns zod validation issues into one readable sentence for -32602 replies and
 * InvalidResult errors: `arguments.a: expected number, received string; name: required`.
 * For a union (e.g. a result that may also be a CreateTaskResult) it reports the branch
 * that came closest to matching, not a bare "Invalid input".
 */
import type * as z from 'zod/mini';
import { NotificationParams } from '../revisions/blocks/base.js';

const MAX_ISSUES = 5;

type Issue = z.core.$ZodIssue;

function flatten(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): { path: PropertyKey[]; message: string }[] {
  const out: { path: PropertyKey[]; message: string }[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
      if (closest.length > 0) {
        out.push(...flatten(closest, path));
        continue;
      }
    }
    out.push({ path, message: issue.message });
  }
  return out;
}

export function formatIssues(error: z.core.$ZodError): string {
  const issues = flatten(error.issues);
  const parts = issues.slice(0, MAX_ISSUES).map(({ path, message }) => {
    const where = path.length > 0 ? path.map(String).join('.') : '(root)';
    return `${where}: ${message}`;
  });
  if (issues.length > MAX_ISSUES) parts.push(`and ${issues.length - MAX_ISSUES} more`);
  return parts.join('; ');
}

/**
 * Whether each schema accepts `{}`, asked once per schema (see {@link acceptsNoParams}). Known
 * from the start for the shared notification params (a loose object whose one field, `_meta`,
 * is optional): `notifications/initialized` carries them, so a server's first handshake neither
 * builds that deferred schema nor parses it (tooling/bench/profiling/README.md, "s22-shutdown").
 */
const acceptsEmpty = new WeakMap<z.ZodMiniType, boolean>([[NotificationParams, true]]);

/**
 * Whether `schema` accepts a message sent without params (validated as `{}`). The answer
 * depends on the schema alone, so it is computed on its first use and remembered: a
 * notification without params (`notifications/initialized` on every handshake) then costs no
 * parse. Only where the parsed value is not used (a notification's handler gets the params as
 * they arrived).
 */
export function acceptsNoParams(schema: z.ZodMiniType): boolean {
  let accepts = acceptsEmpty.get(schema);
  if (accepts === undefined) {
    accepts = schema.safeParse({}).success;
    acceptsEmpty.set(schema, accepts);
  }
  return accepts;
}
