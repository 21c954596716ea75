/**
 * Test helper: a temp root holding a fixture home and a project folder, and a snapshot of every
 * file under it, so a test can say exactly which files an install touched.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export interface FixtureRoot {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  /** Writes a file (and its folders) at a path relative to the root. */
  write(path: string, text: string): void;
  read(path: string): string;
  /** Every file under the root: relative path → content. */
  snapshot(): Record<string, string>;
  remove(): void;
}

export function snapshotFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

export function makeFixtureRoot(): FixtureRoot {
  const root = mkdtempSync(join(tmpdir(), 'statemcp-install-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  return {
    root,
    home,
    project,
    write: (path, text) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    read: (path) => readFileSync(join(root, path), 'utf8'),
    snapshot: () => snapshotFiles(root),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
