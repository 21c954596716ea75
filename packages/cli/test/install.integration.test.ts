/**
 * `statemcp install` as a real process with HOME pointing at a fixture home (no `--home`): it
 * writes only inside the fixture, and the real home's client config files stay as they were.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFixtureRoot, type FixtureRoot } from '../src/install/test-fixture-home.js';
import { statemcpCommand } from './dev-harness.js';

const run = promisify(execFile);

/** The client config files a real home may hold (every platform's layout). */
const REAL_HOME_FILES = [
  '.claude.json',
  '.cursor/mcp.json',
  '.codeium/windsurf/mcp_config.json',
  '.config/Claude/claude_desktop_config.json',
  '.config/Code/User/mcp.json',
  'Library/Application Support/Claude/claude_desktop_config.json',
  'Library/Application Support/Code/User/mcp.json',
  'AppData/Roaming/Claude/claude_desktop_config.json',
  'AppData/Roaming/Code/User/mcp.json',
];

const realHomeState = () => {
  const home = homedir();
  return REAL_HOME_FILES.map((path) => {
    const file = join(home, path);
    return [path, existsSync(file) ? readFileSync(file, 'utf8') : null] as const;
  });
};

async function statemcp(root: FixtureRoot, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { command, args: full } = await statemcpCommand(['install', ...args]);
  const env = { PATH: process.env.PATH ?? '', HOME: root.home, USERPROFILE: root.home };
  try {
    const { stdout, stderr } = await run(command, full, { cwd: root.project, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const fixtures: FixtureRoot[] = [];
afterEach(() => {
  for (const root of fixtures.splice(0)) root.remove();
});

describe('statemcp install', () => {
  it('writes every client’s file under HOME and the project, nothing elsewhere, and refuses an unparsable file', async () => {
    const root = makeFixtureRoot();
    fixtures.push(root);
    const realBefore = realHomeState();
    root.write('home/.claude.json', JSON.stringify({ numStartups: 3, mcpServers: { other: { command: 'x' } } }));

    const user = await statemcp(root, ['--client', 'all', '--platform', 'linux', '--name', 'my-server', '--env', 'API_KEY=k', '--', 'node', 'dist/server.js']);
    expect(user.stderr).toBe('');
    expect(user.code).toBe(0);
    const project = await statemcp(root, ['--client', 'claude-code', '--client', 'cursor', '--client', 'vscode', '--scope', 'project', '--name', 'my-server', '--url', 'http://127.0.0.1:3000/mcp']);
    expect(project.code).toBe(0);
    const dry = await statemcp(root, ['--client', 'cursor', '--platform', 'linux', '--name', 'second', '--dry-run', '--', 'npx', 'srv']);
    expect(dry.stdout).toContain(`Cursor: would add to ${root.home}/.cursor/mcp.json`);
    expect(dry.stdout).toContain('dry run: nothing was written');

    const files = Object.keys(root.snapshot()).sort();
    expect(files.filter((file) => !file.includes('.bak-'))).toEqual(
      [
        'home/.claude.json',
        'home/.codeium/windsurf/mcp_config.json',
        'home/.config/Claude/claude_desktop_config.json',
        'home/.config/Code/User/mcp.json',
        'home/.cursor/mcp.json',
        'project/.cursor/mcp.json',
        'project/.mcp.json',
        'project/.vscode/mcp.json',
      ].sort(),
    );
    expect(files.filter((file) => file.includes('.bak-'))).toEqual([expect.stringMatching(/^home\/\.claude\.json\.bak-/)]);
    expect(JSON.parse(root.read('home/.claude.json'))).toEqual({
      numStartups: 3,
      mcpServers: { other: { command: 'x' }, 'my-server': { type: 'stdio', command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } } },
    });
    expect(JSON.parse(root.read('project/.vscode/mcp.json'))).toEqual({ servers: { 'my-server': { type: 'http', url: 'http://127.0.0.1:3000/mcp' } } });

    root.write('home/.cursor/mcp.json', '{ not json');
    const before = root.snapshot();
    const broken = await statemcp(root, ['--client', 'cursor', '--platform', 'linux', '--name', 'third', '--', 'node', 'x.js']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${root.home}/.cursor/mcp.json is not valid JSON`);
    expect(root.snapshot()).toEqual(before);

    expect(realHomeState()).toEqual(realBefore);
  });
});
