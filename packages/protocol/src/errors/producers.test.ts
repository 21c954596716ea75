import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LocalErrorCode } from './categories.js';

const errorsDir = fileURLToPath(new URL('.', import.meta.url));
const packagesDir = fileURLToPath(new URL('../../..', import.meta.url));

/** Every non-test source file of every package, except the error definitions themselves. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !path.startsWith(errorsDir)) files.push(path);
    }
  };
  for (const name of readdirSync(packagesDir)) walk(join(packagesDir, name, 'src'));
  return files;
}

/** The error classes defined with a given local code in errors.ts. */
function classesFor(key: string): string[] {
  const definitions = readFileSync(join(errorsDir, 'errors.ts'), 'utf8').split(/\nexport /);
  return definitions
    .filter((text) => text.includes(`LocalErrorCode.${key})`) || text.includes(`LocalErrorCode.${key},`))
    .map((text) => /^(?:const|class) (\w+)/.exec(text)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe('local error codes', () => {
  it('are all produced somewhere (no code or class that nothing throws)', () => {
    const sources = sourceFiles().map((file) => readFileSync(file, 'utf8'));
    const unproduced = Object.keys(LocalErrorCode).filter((key) => {
      const producers = [`LocalErrorCode.${key}`, ...classesFor(key).map((name) => `new ${name}(`)];
      return !sources.some((text) => producers.some((producer) => text.includes(producer)));
    });
    expect(unproduced).toEqual([]);
  });
});
