import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProject, projectFiles } from './create-project.js';
import type { ProjectOptions } from './options.js';
import { TEST_VERSIONS } from './test-versions.js';

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'create-statemcp-test-'));
  scratch.push(dir);
  return dir;
}

const OPTIONS: ProjectOptions = { name: 'weather', transport: 'both', era: 'both', packageManager: 'npm' };
const manifestOf = (options: ProjectOptions) => JSON.parse(projectFiles(options, TEST_VERSIONS).get('package.json') ?? '{}') as Record<string, Record<string, string>>;

describe('projectFiles', () => {
  it('is a server, its entry point, its test, a README and the configs', () => {
    expect([...projectFiles(OPTIONS, TEST_VERSIONS).keys()]).toEqual([
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'vitest.config.ts',
      '.gitignore',
      'README.md',
      'src/server.ts',
      'src/main.ts',
      'src/server.test.ts',
    ]);
  });

  it('writes the scripts dev, build, start, test and inspect', () => {
    expect(manifestOf(OPTIONS)['scripts']).toEqual({
      dev: 'statemcp dev src/server.ts',
      build: 'tsc -p tsconfig.build.json',
      start: 'node dist/main.js',
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      inspect: 'tsc -p tsconfig.build.json && statemcp-inspect -- node dist/main.js',
    });
    expect(manifestOf({ ...OPTIONS, transport: 'http' })['scripts']?.['inspect']).toBe('statemcp-inspect --url http://127.0.0.1:3000/mcp');
  });

  it('depends on the transports chosen, at the versions given', () => {
    expect(manifestOf(OPTIONS)['dependencies']).toEqual({
      '@statemcp/http-transport': TEST_VERSIONS['@statemcp/http-transport'],
      '@statemcp/protocol': TEST_VERSIONS['@statemcp/protocol'],
      '@statemcp/server': TEST_VERSIONS['@statemcp/server'],
      '@statemcp/stdio-transport': TEST_VERSIONS['@statemcp/stdio-transport'],
      zod: '^4.0.0',
    });
    expect(Object.keys(manifestOf({ ...OPTIONS, transport: 'stdio' })['dependencies'] ?? {})).not.toContain('@statemcp/http-transport');
    expect(Object.keys(manifestOf({ ...OPTIONS, transport: 'http' })['dependencies'] ?? {})).not.toContain('@statemcp/stdio-transport');
  });

  it('gives @statemcp/cli its own version, or the range of the other @statemcp packages until it has one', () => {
    expect(manifestOf(OPTIONS)['devDependencies']).toEqual({
      '@statemcp/cli': TEST_VERSIONS['@statemcp/server'],
      '@statemcp/client': TEST_VERSIONS['@statemcp/client'],
      '@statemcp/inspector': TEST_VERSIONS['@statemcp/inspector'],
      '@types/node': '^20.19.43',
      typescript: '^5.9.3',
      vitest: '^4.1.12',
    });
    const withCli = JSON.parse(projectFiles(OPTIONS, { ...TEST_VERSIONS, '@statemcp/cli': '^0.3.1' }).get('package.json') ?? '{}') as Record<string, Record<string, string>>;
    expect(withCli['devDependencies']?.['@statemcp/cli']).toBe('^0.3.1');
  });

  it('serves the eras chosen', () => {
    const server = (era: ProjectOptions['era']) => projectFiles({ ...OPTIONS, era }, TEST_VERSIONS).get('src/server.ts') ?? '';
    expect(server('both')).not.toContain('supportedVersions');
    expect(server('modern')).toContain('supportedVersions: [...MODERN_PROTOCOL_VERSIONS]');
    expect(server('legacy')).toContain('supportedVersions: [...LEGACY_PROTOCOL_VERSIONS]');
    expect(projectFiles({ ...OPTIONS, era: 'legacy' }, TEST_VERSIONS).get('src/server.test.ts')).toContain("describe.each(['legacy'] as const)");
  });

  it('serves over the transport chosen', () => {
    const main = (transport: ProjectOptions['transport']) => projectFiles({ ...OPTIONS, transport }, TEST_VERSIONS).get('src/main.ts') ?? '';
    expect(main('stdio')).toContain('new StdioServerTransport()');
    expect(main('stdio')).not.toContain('createStreamableHttpServer');
    expect(main('http')).toContain('createStreamableHttpServer');
    expect(main('http')).not.toContain('StdioServerTransport');
    expect(main('both')).toContain("process.argv.includes('--http')");
  });

  it('writes the package manager’s commands in the README', () => {
    expect(projectFiles({ ...OPTIONS, packageManager: 'pnpm' }, TEST_VERSIONS).get('README.md')).toContain('| `pnpm dev` |');
    expect(projectFiles({ ...OPTIONS, packageManager: 'bun' }, TEST_VERSIONS).get('README.md')).toContain('| `bun run test` |');
    expect(projectFiles(OPTIONS, TEST_VERSIONS).get('README.md')).toContain('| `npm test` |');
  });

  it('refuses an invalid name with INVALID_NAME', () => {
    expect(() => projectFiles({ ...OPTIONS, name: 'Weather' }, TEST_VERSIONS)).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }));
  });

  it('throws when the versions lack a package', () => {
    const { zod: _zod, ...withoutZod } = TEST_VERSIONS;
    expect(() => projectFiles(OPTIONS, withoutZod)).toThrow('versions.json has no range for zod');
  });
});

describe('createProject', () => {
  it('writes every file into a new directory', () => {
    const directory = join(tempDir(), 'weather');
    const written = createProject({ ...OPTIONS, directory, versions: TEST_VERSIONS });
    expect(written).toHaveLength(9);
    expect(readdirSync(join(directory, 'src')).sort()).toEqual(['main.ts', 'server.test.ts', 'server.ts']);
    expect(readFileSync(join(directory, 'src/server.ts'), 'utf8')).toBe(projectFiles(OPTIONS, TEST_VERSIONS).get('src/server.ts'));
  });

  it('writes into an existing empty directory', () => {
    const directory = tempDir();
    createProject({ ...OPTIONS, directory, versions: TEST_VERSIONS });
    expect(readdirSync(directory)).toContain('package.json');
  });

  it('refuses a directory that is not empty, and writes nothing', () => {
    const directory = tempDir();
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    expect(() => createProject({ ...OPTIONS, directory, versions: TEST_VERSIONS })).toThrow(expect.objectContaining({ code: 'TARGET_NOT_EMPTY', message: expect.stringContaining('is not empty (notes.txt); choose another name or pass --force') }));
    expect(readdirSync(directory)).toEqual(['notes.txt']);
  });

  it('writes into a directory that is not empty with force, keeping the other files', () => {
    const directory = tempDir();
    mkdirSync(join(directory, 'src'));
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    createProject({ ...OPTIONS, directory, versions: TEST_VERSIONS, force: true });
    expect(readFileSync(join(directory, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(join(directory, 'src'))).toContain('server.ts');
  });

  it('refuses a target that is a file', () => {
    const file = join(tempDir(), 'taken');
    writeFileSync(file, '');
    expect(() => createProject({ ...OPTIONS, directory: file, versions: TEST_VERSIONS, force: true })).toThrow(expect.objectContaining({ code: 'TARGET_NOT_EMPTY', message: `${file} exists and is not a directory` }));
  });
});
