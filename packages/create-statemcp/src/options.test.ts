import { describe, expect, it } from 'vitest';
import { CreateStatemcpError } from './errors.js';
import { detectPackageManager, directoryFor, nameProblem, parseFlags, validateProjectName } from './options.js';

describe('parseFlags', () => {
  it('reads every flag', () => {
    expect(parseFlags(['--name', 'weather', '--transport', 'http', '--era', 'modern', '--package-manager', 'pnpm', '--yes', '--no-install', '--force'])).toEqual({
      name: 'weather',
      transport: 'http',
      era: 'modern',
      packageManager: 'pnpm',
      yes: true,
      install: false,
      force: true,
      help: false,
    });
  });

  it('takes the name as the positional argument and leaves the rest open', () => {
    expect(parseFlags(['weather', '-y'])).toEqual({ name: 'weather', yes: true, install: true, force: false, help: false });
  });

  it('refuses a value outside the choices with INVALID_OPTION', () => {
    expect(() => parseFlags(['--transport', 'sse'])).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: '--transport must be one of stdio, http, both (got "sse")' }));
    expect(() => parseFlags(['--era', 'new'])).toThrow(CreateStatemcpError);
    expect(() => parseFlags(['--package-manager', 'yarn'])).toThrow(/--package-manager must be one of npm, pnpm, bun/);
  });

  it('refuses an unknown flag, two names and two positionals', () => {
    expect(() => parseFlags(['--typescript'])).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => parseFlags(['a', '--name', 'b'])).toThrow(/two names given/);
    expect(() => parseFlags(['a', 'b'])).toThrow(/one project name at most/);
  });
});

describe('nameProblem', () => {
  it('accepts plain and scoped npm names', () => {
    for (const name of ['my-mcp-server', 'weather.mcp', 'a', '@acme/weather', 'mcp_2']) expect(nameProblem(name)).toBeUndefined();
  });

  it.each([
    ['', 'the name is empty'],
    ['My-Server', 'the name has upper-case letters'],
    ['.hidden', 'the name starts with "." or "_"'],
    ['_private', 'the name starts with "." or "_"'],
    ['my server', 'the name has a space or one of ~\'!()*'],
    ['wow!', 'the name has a space or one of ~\'!()*'],
    ['a/b', 'the name has characters that are not URL-safe'],
    ['@acme', 'a scoped name is @scope/name'],
    ['@acme/_x', 'the name starts with "." or "_"'],
    ['node_modules', '"node_modules" is reserved'],
    ['http', '"http" is a Node.js built-in module'],
    [' padded', 'the name starts or ends with a space'],
    ['x'.repeat(215), 'the name is longer than 214 characters'],
  ])('refuses %j: %s', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });

  it('throws INVALID_NAME from validateProjectName', () => {
    expect(() => validateProjectName('Bad Name')).toThrow(expect.objectContaining({ code: 'INVALID_NAME', message: '"Bad Name" is not a valid npm package name: the name has upper-case letters' }));
    expect(validateProjectName('good-name')).toBe('good-name');
  });
});

describe('detectPackageManager', () => {
  it('reads the first product of npm_config_user_agent', () => {
    expect(detectPackageManager('pnpm/10.34.8 npm/? node/v20.19.0 linux x64')).toBe('pnpm');
    expect(detectPackageManager('bun/1.2.0 npm/? node/v22.0.0 linux x64')).toBe('bun');
    expect(detectPackageManager('npm/10.8.2 node/v20.19.0 linux x64 workspaces/false')).toBe('npm');
  });

  it('falls back to npm for another or no user agent', () => {
    expect(detectPackageManager('yarn/4.0.0 npm/? node/v20.19.0')).toBe('npm');
    expect(detectPackageManager(undefined)).toBe('npm');
  });
});

describe('directoryFor', () => {
  it('is the last segment of a scoped name', () => {
    expect(directoryFor('@acme/weather')).toBe('weather');
    expect(directoryFor('weather')).toBe('weather');
  });
});
