/**
 * Writes a new project: every file of the template into a directory that is absent or empty
 * (or any directory with `force`), after checking the name.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CreateStatemcpError } from './errors.js';
import { validateProjectName, type ProjectOptions } from './options.js';
import { GITIGNORE, packageJson, readme, tsconfigFiles, VITEST_CONFIG, type DependencyVersions } from './template/project-files.js';
import { mainSource, serverSource, testSource } from './template/server-files.js';

/** The files of a project, by path relative to its directory, in the order they are written. */
export function projectFiles(options: ProjectOptions, versions: DependencyVersions): Map<string, string> {
  validateProjectName(options.name);
  return new Map([
    ['package.json', packageJson(options, versions)],
    ...Object.entries(tsconfigFiles()),
    ['vitest.config.ts', VITEST_CONFIG],
    ['.gitignore', GITIGNORE],
    ['README.md', readme(options)],
    ['src/server.ts', serverSource(options)],
    ['src/main.ts', mainSource(options)],
    ['src/server.test.ts', testSource(options)],
  ]);
}

/** Where and how `createProject()` writes. */
export interface CreateProjectInput extends ProjectOptions {
  /** The directory to write into (created when absent). */
  readonly directory: string;
  /** The dependency ranges (see `DependencyVersions`); the command reads them from versions.json. */
  readonly versions: DependencyVersions;
  /** Write into a directory that is not empty, replacing the template's files there. */
  readonly force?: boolean;
}

/**
 * Writes the project and returns the paths written (absolute). Throws `INVALID_NAME` for a name npm
 * would refuse and `TARGET_NOT_EMPTY` when the directory holds anything and `force` is not set.
 */
export function createProject(input: CreateProjectInput): string[] {
  const directory = resolve(input.directory);
  const files = projectFiles(input, input.versions);
  if (existsSync(directory)) {
    if (!statSync(directory).isDirectory()) throw new CreateStatemcpError('TARGET_NOT_EMPTY', `${directory} exists and is not a directory`);
    const entries = readdirSync(directory);
    if (entries.length > 0 && input.force !== true) {
      throw new CreateStatemcpError('TARGET_NOT_EMPTY', `${directory} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}); choose another name or pass --force`);
    }
  }
  const written: string[] = [];
  for (const [path, text] of files) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    written.push(target);
  }
  return written;
}
