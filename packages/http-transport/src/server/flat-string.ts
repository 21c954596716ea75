/**
 * Node builds `crypto.randomUUID()` by concatenating its hex pairs: the string it returns is a
 * tree of cons strings, several times the heap of the flat string, until something flattens it. Reading
 * one character makes V8 flatten it in place, so a long-lived id (a session's, a transport's
 * key) holds one flat string and the tree becomes garbage.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** A random UUID as one flat string (see {@link flatString}). */
export function flatRandomUuid(): string {
  return flatString(globalThis.crypto.randomUUID());
}
