/**
 * Reading and writing one client config file safely: parse (JSON, or JSON with comments where
 * the client allows it), add one server keeping every other key and server, back the file up
 * (`<file>.bak-<timestamp>`) and replace it atomically (a temp file in the same folder, then
 * `rename`, so a crash never leaves half a file). A file that does not parse is never touched.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigFileError } from '../errors.js';

/**
 * Turns JSON with comments (`//`, `/* … *\/`) and trailing commas into plain JSON, leaving
 * strings alone. The result has the same line structure, so parse errors point at the same line.
 */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    const next = text[i + 1];
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
    } else if (char === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      i = end === -1 ? text.length : end + 2;
    } else if (char === ',') {
      // A trailing comma: only whitespace or comments before the closing bracket.
      const rest = stripJsonCommentsAhead(text, i + 1);
      out += rest === '}' || rest === ']' ? ' ' : ',';
      i++;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

/** The first character after `from` that is neither whitespace nor inside a comment. */
function stripJsonCommentsAhead(text: string, from: number): string | undefined {
  let i = from;
  while (i < text.length) {
    const char = text[i];
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') i++;
    else if (char === '/' && text[i + 1] === '/') while (i < text.length && text[i] !== '\n') i++;
    else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else return char;
  }
  return undefined;
}

/** A config file as read: absent (it will be created), or its text and parsed document. */
export type ConfigDocument =
  | { readonly exists: false; readonly file: string; readonly document: Record<string, unknown> }
  | { readonly exists: true; readonly file: string; readonly text: string; readonly document: Record<string, unknown>; readonly hasComments: boolean };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads and parses `file`; throws a `ConfigFileError` (`unparsable`, `unexpected-shape`) rather than guess. */
export async function readConfig(file: string, allowsComments: boolean): Promise<ConfigDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, file, document: {} };
    throw error;
  }
  if (text.trim() === '') return { exists: true, file, text, document: {}, hasComments: false };
  const plain = allowsComments ? stripJsonComments(text) : text;
  let document: unknown;
  try {
    document = JSON.parse(plain);
  } catch (error) {
    const format = allowsComments ? 'JSON (with comments)' : 'JSON';
    throw new ConfigFileError('unparsable', file, `${file} is not valid ${format} (${(error as Error).message}); fix or move it, nothing was changed`, { cause: error });
  }
  if (!isObject(document)) throw new ConfigFileError('unexpected-shape', file, `${file} does not hold a JSON object; nothing was changed`);
  return { exists: true, file, text, document, hasComments: plain !== text };
}

/** The result of adding one server to a document. */
export interface ConfigEdit {
  readonly document: Record<string, unknown>;
  /** The entry that was there under the same name (replaced with `force`). */
  readonly previous: unknown;
}

/**
 * Adds (or with `force` replaces) `name` under `serversKey`, keeping every other key and
 * server in place. Throws `server-exists` without `force`, `unexpected-shape` when the
 * servers key holds something other than an object.
 */
export function addServer(config: ConfigDocument, serversKey: string, name: string, entry: Record<string, unknown>, force: boolean): ConfigEdit {
  const servers = config.document[serversKey] ?? {};
  if (!isObject(servers)) throw new ConfigFileError('unexpected-shape', config.file, `${config.file}: "${serversKey}" is not an object; nothing was changed`);
  const previous = servers[name];
  if (previous !== undefined && !force) {
    throw new ConfigFileError('server-exists', config.file, `${config.file} already has a server named "${name}"; pass --force to replace it`);
  }
  const nextServers = previous === undefined ? { ...servers, [name]: entry } : Object.fromEntries(Object.entries(servers).map(([key, value]) => [key, key === name ? entry : value]));
  return { document: { ...config.document, [serversKey]: nextServers }, previous };
}

/** The indentation the file already uses (two spaces for a new file). */
export function detectIndent(text: string | undefined): string | number {
  const match = text === undefined ? null : /^([ \t]+)\S/m.exec(text);
  return match?.[1] ?? 2;
}

/** Serializes the document the way the file was written (its indentation, its final newline). */
export function formatConfig(config: ConfigDocument, document: Record<string, unknown>): string {
  const text = config.exists ? config.text : undefined;
  const trailing = text === undefined || text.endsWith('\n') ? '\n' : '';
  return JSON.stringify(document, null, detectIndent(text)) + trailing;
}

/** `2026-11-28T14-05-09-123Z`: a timestamp that sorts and is a valid file name everywhere. */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

/**
 * Copies `file` to `<file>.bak-<timestamp>` (never over an existing backup) and returns the
 * backup's path.
 */
export async function backupFile(file: string, now: Date): Promise<string> {
  const base = `${file}.bak-${backupStamp(now)}`;
  for (let attempt = 0; ; attempt++) {
    const backup = attempt === 0 ? base : `${base}-${attempt}`;
    try {
      await copyFile(file, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Replaces `file` with `text` atomically: writes a temp file beside it (same folder, so the
 * rename stays on one file system), keeps the old file's permissions, and renames it over.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx', mode: 0o600 });
    const mode = await stat(file).then(
      (stats) => stats.mode & 0o777,
      () => 0o644,
    );
    await chmod(temp, mode);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
