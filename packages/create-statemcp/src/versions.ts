/** The dependency ranges of a generated project, as the build wrote them (scripts/write-versions.mjs). */
import { readFileSync } from 'node:fs';
import { CreateStatemcpError } from './errors.js';
import type { DependencyVersions } from './template/project-files.js';

/** Reads versions.json from this package's root (next to dist/ and src/). */
export function packagedVersions(url: URL = new URL('../versions.json', import.meta.url)): DependencyVersions {
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (error) {
    throw new CreateStatemcpError('NOT_BUILT', `${url.pathname} is missing: build create-statemcp first (it writes the dependency versions)`, { cause: error });
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Object.values(parsed).some((value) => typeof value !== 'string')) {
    throw new CreateStatemcpError('NOT_BUILT', `${url.pathname} is not a map of package names to version ranges`);
  }
  return parsed as DependencyVersions;
}
