/**
 * Turns zod validation issues into one readable sentence for -32602 replies and
 * InvalidResult errors: `arguments.a: expected number, received string; name: required`.
 */
import type { z } from 'zod';

const MAX_ISSUES = 5;

export function formatIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${path}: ${issue.message}`;
  });
  if (error.issues.length > MAX_ISSUES) parts.push(`and ${error.issues.length - MAX_ISSUES} more`);
  return parts.join('; ');
}
