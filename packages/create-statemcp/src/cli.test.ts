import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main, type CliEnvironment } from './cli.js';
import type { PackageManager } from './options.js';
import { TEST_VERSIONS } from './test-versions.js';

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A command environment in a fresh directory that records what it prints and installs, and answers questions from a list. */
function environment(answers?: string[], overrides: Partial<CliEnvironment> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'create-statemcp-cli-'));
  scratch.push(cwd);
  const out: string[] = [];
  const err: string[] = [];
  const questions: string[] = [];
  const installs: [PackageManager, string][] = [];
  const env: Partial<CliEnvironment> = {
    cwd,
    env: { npm_config_user_agent: 'npm/10.8.2 node/v20.19.0 linux x64' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    ask:
      answers === undefined
        ? undefined
        : (question) => {
            questions.push(question);
            return Promise.resolve(answers.shift() ?? '');
          },
    versions: () => TEST_VERSIONS,
    install: (manager, directory) => {
      installs.push([manager, directory]);
      return Promise.resolve();
    },
    ...overrides,
  };
  return { cwd, out, err, questions, installs, env };
}

const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { name: string; dependencies: Record<string, string> };

describe('main', () => {
  it('writes the project the flags describe and installs it with the package manager given', async () => {
    const { cwd, out, installs, questions, env } = environment([]);
    expect(await main(['--name', 'weather', '--transport', 'stdio', '--era', 'legacy', '--package-manager', 'pnpm'], env)).toBe(0);
    expect(questions).toEqual([]);
    expect(manifest(join(cwd, 'weather/package.json')).dependencies).not.toHaveProperty('@statemcp/http-transport');
    expect(readFileSync(join(cwd, 'weather/src/server.ts'), 'utf8')).toContain('LEGACY_PROTOCOL_VERSIONS');
    expect(installs).toEqual([['pnpm', join(cwd, 'weather')]]);
    expect(out.join('\n')).toContain('Next:\n  cd weather\n  pnpm test');
  });

  it('asks for what the flags leave open, again after an invalid answer', async () => {
    const { cwd, err, questions, env } = environment(['Bad Name', 'notes', 'sse', 'http', '']);
    expect(await main(['--no-install'], env)).toBe(0);
    expect(questions).toEqual([
      'Project name (my-mcp-server): ',
      'Project name (my-mcp-server): ',
      'Transport: stdio, http or both (both): ',
      'Transport: stdio, http or both (both): ',
      'Protocol eras served: both, modern (2026-07-28) or legacy (handshake) (both): ',
    ]);
    expect(err).toEqual(['  the name has upper-case letters', '  one of stdio, http, both']);
    expect(readFileSync(join(cwd, 'notes/src/main.ts'), 'utf8')).toContain('createStreamableHttpServer');
  });

  it('takes the defaults with --yes and the package manager from npm_config_user_agent', async () => {
    const { cwd, questions, installs, env } = environment(['never asked'], { env: { npm_config_user_agent: 'bun/1.2.0 npm/? node/v22.0.0' } });
    expect(await main(['--yes'], env)).toBe(0);
    expect(questions).toEqual([]);
    expect(existsSync(join(cwd, 'my-mcp-server/src/server.test.ts'))).toBe(true);
    expect(installs).toEqual([['bun', join(cwd, 'my-mcp-server')]]);
  });

  it('takes the defaults when there is no terminal to ask', async () => {
    const { cwd, env } = environment(undefined);
    expect(await main(['--no-install'], env)).toBe(0);
    expect(manifest(join(cwd, 'my-mcp-server/package.json')).name).toBe('my-mcp-server');
  });

  it('writes a scoped name into the directory of its last segment', async () => {
    const { cwd, env } = environment();
    expect(await main(['@acme/weather', '-y', '--no-install'], env)).toBe(0);
    expect(manifest(join(cwd, 'weather/package.json')).name).toBe('@acme/weather');
  });

  it('exits 2 with the reason on an invalid name or flag, writing nothing', async () => {
    const { cwd, err, env } = environment();
    expect(await main(['Weather', '-y'], env)).toBe(2);
    expect(await main(['--transport', 'sse'], env)).toBe(2);
    expect(err).toEqual(['create-statemcp: "Weather" is not a valid npm package name: the name has upper-case letters', 'create-statemcp: --transport must be one of stdio, http, both (got "sse")']);
    expect(existsSync(join(cwd, 'Weather'))).toBe(false);
  });

  it('exits 1 on a directory that is not empty, unless --force', async () => {
    const { cwd, err, env } = environment();
    await main(['weather', '-y', '--no-install'], env);
    writeFileSync(join(cwd, 'weather/src/server.ts'), '// mine');
    expect(await main(['weather', '-y', '--no-install'], env)).toBe(1);
    expect(err[0]).toMatch(/^create-statemcp: .*weather is not empty/);
    expect(await main(['weather', '-y', '--no-install', '--force'], env)).toBe(0);
    expect(readFileSync(join(cwd, 'weather/src/server.ts'), 'utf8')).toContain('createServer');
  });

  it('exits 1 when the install fails, saying the files are written', async () => {
    const { cwd, err, env } = environment(undefined, { install: () => Promise.reject(new Error('npm install exited with 1')) });
    expect(await main(['weather', '-y'], env)).toBe(1);
    expect(err).toEqual(['create-statemcp: the files are written, but npm install failed: npm install exited with 1']);
    expect(existsSync(join(cwd, 'weather/package.json'))).toBe(true);
  });

  it('prints the usage with --help', async () => {
    const { out, env } = environment();
    expect(await main(['--help'], env)).toBe(0);
    expect(out[0]).toContain('Usage: npm create statemcp@latest [name]');
  });
});
