/**
 * The manifest at the end of a generated module: a fingerprint of each tool's input and output
 * schemas, each prompt's arguments and each resource's URI template. Comparing the manifest of
 * the module on disk with the new one says what changed on the server since the last run.
 */
import { createHash } from 'node:crypto';

/** The comment line that carries the manifest. */
export const MANIFEST_MARKER = '// statemcp-typegen manifest:';

/** Fingerprints of a server's definitions, by name. */
export interface Manifest {
  tools: Record<string, { readonly input: string; readonly output: string | null }>;
  prompts: Record<string, string>;
  resources: Record<string, string>;
}

/** One change between two manifests. */
export interface DefinitionChange {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
  readonly change: 'added' | 'removed' | 'changed';
  /** For a changed tool: which schemas changed. */
  readonly detail?: string;
}

/** JSON with its object keys sorted, so that key order does not change a fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A short fingerprint of a JSON value (SHA-256 of its canonical JSON, 16 hex digits). */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex').slice(0, 16);
}

/** The manifest written in a generated module, or `undefined` when it has none (or it is unreadable). */
export function readManifest(moduleText: string): Manifest | undefined {
  const line = moduleText.split('\n').find((text) => text.startsWith(MANIFEST_MARKER));
  if (line === undefined) return undefined;
  try {
    const parsed = JSON.parse(line.slice(MANIFEST_MARKER.length)) as Partial<Manifest>;
    return { tools: parsed.tools ?? {}, prompts: parsed.prompts ?? {}, resources: parsed.resources ?? {} };
  } catch {
    return undefined;
  }
}

function compare<T>(kind: DefinitionChange['kind'], before: Record<string, T>, after: Record<string, T>, detail: (a: T, b: T) => string | undefined): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  for (const name of Object.keys(after)) {
    if (!(name in before)) changes.push({ kind, name, change: 'added' });
  }
  for (const [name, old] of Object.entries(before)) {
    const now = after[name];
    if (now === undefined) {
      changes.push({ kind, name, change: 'removed' });
      continue;
    }
    if (canonical(old) === canonical(now)) continue;
    const what = detail(old, now);
    changes.push(what === undefined ? { kind, name, change: 'changed' } : { kind, name, change: 'changed', detail: what });
  }
  return changes;
}

/** What changed from `before` to `after`: added, removed and changed tools, prompts and resources. */
export function diffManifests(before: Manifest, after: Manifest): DefinitionChange[] {
  return [
    ...compare('tool', before.tools, after.tools, (old, now) =>
      [old.input !== now.input ? 'input schema' : undefined, old.output !== now.output ? (now.output === null ? 'output schema removed' : old.output === null ? 'output schema added' : 'output schema') : undefined]
        .filter((part) => part !== undefined)
        .join(', '),
    ),
    ...compare('prompt', before.prompts, after.prompts, () => 'arguments'),
    ...compare('resource', before.resources, after.resources, () => 'URI template'),
  ];
}

/** One line per change, e.g. `~ tool forecast: output schema`. */
export function describeChanges(changes: readonly DefinitionChange[]): string[] {
  const sign = { added: '+', removed: '-', changed: '~' } as const;
  return changes.map((change) => `${sign[change.change]} ${change.kind} ${change.name}${change.detail === undefined ? '' : `: ${change.detail}`}`);
}
