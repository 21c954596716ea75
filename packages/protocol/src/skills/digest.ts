/**
 * Skill file digests: `sha256:` plus 64 lowercase hex digits over a file's raw bytes,
 * computed with Web Crypto (`crypto.subtle`), which every supported runtime has.
 */

/**
 * The `sha256:<hex>` digest of `bytes`.
 *
 * @example
 * ```ts
 * await skillDigest(new TextEncoder().encode('hello')); // 'sha256:2cf24dba…'
 * ```
 */
export async function skillDigest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}
