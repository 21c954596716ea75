/**
 * The roots a client exposes through `roots/list`. In every legacy revision a root's URI
 * must be a `file://` URI; anything else is refused up front with `InvalidArgumentError`.
 */
import { InvalidArgumentError } from '@statemcp/protocol';
import type { Root } from './types.js';

/** Returns copies of `roots` after checking each is a `file://` URI. */
export function checkRoots(roots: readonly Root[]): readonly Root[] {
  for (const root of roots) {
    if (typeof root.uri !== 'string' || !root.uri.startsWith('file://')) {
      throw new InvalidArgumentError(`A root must be a file:// URI, got ${JSON.stringify(root.uri)}`);
    }
  }
  return roots.map((root) => ({ ...root }));
}

/** True when two root lists are the same, in the same order. */
export function sameRoots(a: readonly Root[] | undefined, b: readonly Root[]): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
