/**
 * One skill's files as served: the checks every file path passes (relative, `/`-separated, no
 * `.`/`..`/empty segments, no backslash or control characters), the `skill://` URIs, the MIME
 * type by extension, and text-or-blob contents (text only when the bytes are UTF-8 that decodes
 * back to the same bytes, so the digest a host computes from the text matches).
 */
import { SKILL_FILE_NAME, SKILL_MARKDOWN_MIME_TYPE } from '@statemcp/protocol/internal';

/** True when `segment` has no control character, backslash or slash. */
function plainSegment(segment: string): boolean {
  return [...segment].every((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f && char !== '\\' && char !== '/');
}
const PREFIX_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Why `path` (a file path inside a skill) cannot be served, as one sentence; undefined when it can. */
export function filePathProblem(path: string): string | undefined {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return `${JSON.stringify(path)} is an absolute path; skill files are named relative to the skill's folder`;
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '..' || segment === '.') return `${JSON.stringify(path)} contains a "${segment}" segment; skill files must stay inside the skill's folder`;
    if (segment === '' || !plainSegment(segment)) return `${JSON.stringify(path)} has an empty segment, a backslash or a control character`;
  }
  return undefined;
}

/** Why `path` (a skill path such as `acme/billing/refunds`) cannot be served; undefined when it can. */
export function skillPathProblem(path: string): string | undefined {
  const segments = path.split('/');
  if (segments.some((segment) => segment === '.' || segment === '..' || !PREFIX_SEGMENT.test(segment))) {
    return `skill path ${JSON.stringify(path)} must be /-separated segments of letters, digits, '.', '_', '~' and '-' (no "." or ".." segment)`;
  }
  return undefined;
}

/** The `skill://` URI of a file (or, with `file` omitted, of the skill's root directory). */
export function skillUri(skillPath: string, file?: string): string {
  const encoded = (value: string) => value.split('/').map(encodeURIComponent).join('/');
  return file === undefined ? `skill://${skillPath}` : `skill://${skillPath}/${encoded(file)}`;
}

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze({
  md: SKILL_MARKDOWN_MIME_TYPE,
  markdown: SKILL_MARKDOWN_MIME_TYPE,
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  xml: 'application/xml',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
});

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The UTF-8 text of `bytes`, or undefined when they are not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The MIME type of a skill file: by extension, else `text/plain` for UTF-8 and `application/octet-stream` otherwise. */
export function mimeTypeOf(path: string, bytes: Uint8Array): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === SKILL_FILE_NAME) return SKILL_MARKDOWN_MIME_TYPE;
  const dot = name.lastIndexOf('.');
  const known = dot > 0 ? MIME_BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined;
  if (known !== undefined) return known;
  return utf8Text(bytes) === undefined ? 'application/octet-stream' : 'text/plain';
}

function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /^application\/(?:json|yaml|xml|javascript)$/.test(mimeType);
}

/** The `resources/read` contents of a file: `text` for textual UTF-8, base64 `blob` otherwise. */
export function fileContents(uri: string, mimeType: string, bytes: Uint8Array): { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string } {
  const text = isTextual(mimeType) ? utf8Text(bytes) : undefined;
  if (text !== undefined) return { uri, mimeType, text };
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return { uri, mimeType, blob: btoa(binary) };
}
