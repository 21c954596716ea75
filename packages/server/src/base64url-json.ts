/**
 * JSON in base64url (RFC 4648 §5, no padding), the form of the server's opaque cursors. Built
 * on `TextEncoder`, `btoa` and `atob`, which every JavaScript runtime has, so the server
 * needs no Node `Buffer` (browsers, workers and Deno run it as they are).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** `value` as JSON, UTF-8 encoded, in base64url without padding. */
export function encodeBase64UrlJson(value: unknown): string {
  let binary = '';
  for (const byte of encoder.encode(JSON.stringify(value))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The JSON value in a base64url string; throws on text that is not base64url of UTF-8 JSON. */
export function decodeBase64UrlJson(text: string): unknown {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return JSON.parse(decoder.decode(bytes)) as unknown;
}
