import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileError, UsageError } from '../errors.js';
import type { ClientId, InstallPlatform, ServerSpec } from './clients.js';
import { describeChange, installServer, parseInstallArgs, type InstallOptions } from './install-command.js';
import { makeFixtureRoot, type FixtureRoot } from './test-fixture-home.js';

const fixtures: FixtureRoot[] = [];
const fixture = () => {
  const made = makeFixtureRoot();
  fixtures.push(made);
  return made;
};
afterEach(() => {
  for (const made of fixtures.splice(0)) made.remove();
});

const NOW = new Date('2026-11-28T14:05:09.123Z');
const STDIO: ServerSpec = { kind: 'stdio', command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } };
const HTTP: ServerSpec = { kind: 'http', url: 'http://127.0.0.1:3000/mcp', headers: {} };

const install = (root: FixtureRoot, options: Partial<InstallOptions> & Pick<InstallOptions, 'clients'>) =>
  installServer({ name: 'my-server', server: STDIO, home: root.home, projectDir: root.project, now: () => NOW, ...options });

/** Where each client's user file lives under the fixture home, per platform. */
const USER_FILES: Record<ClientId, Record<InstallPlatform, string>> = {
  'claude-desktop': {
    darwin: 'home/Library/Application Support/Claude/claude_desktop_config.json',
    win32: 'home/AppData/Roaming/Claude/claude_desktop_config.json',
    linux: 'home/.config/Claude/claude_desktop_config.json',
  },
  'claude-code': { darwin: 'home/.claude.json', win32: 'home/.claude.json', linux: 'home/.claude.json' },
  cursor: { darwin: 'home/.cursor/mcp.json', win32: 'home/.cursor/mcp.json', linux: 'home/.cursor/mcp.json' },
  vscode: {
    darwin: 'home/Library/Application Support/Code/User/mcp.json',
    win32: 'home/AppData/Roaming/Code/User/mcp.json',
    linux: 'home/.config/Code/User/mcp.json',
  },
  windsurf: { darwin: 'home/.codeium/windsurf/mcp_config.json', win32: 'home/.codeium/windsurf/mcp_config.json', linux: 'home/.codeium/windsurf/mcp_config.json' },
};

const PROJECT_FILES: Partial<Record<ClientId, string>> = { 'claude-code': 'project/.mcp.json', cursor: 'project/.cursor/mcp.json', vscode: 'project/.vscode/mcp.json' };

/** The entry each client's documented format gives the stdio server and the URL. */
const ENTRIES: Record<ClientId, { key: string; stdio: unknown; http: unknown }> = {
  'claude-desktop': { key: 'mcpServers', stdio: { command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } }, http: undefined },
  'claude-code': { key: 'mcpServers', stdio: { type: 'stdio', command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } }, http: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } },
  cursor: { key: 'mcpServers', stdio: { command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } }, http: { url: 'http://127.0.0.1:3000/mcp' } },
  vscode: { key: 'servers', stdio: { type: 'stdio', command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } }, http: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } },
  windsurf: { key: 'mcpServers', stdio: { command: 'node', args: ['dist/server.js'], env: { API_KEY: 'k' } }, http: { serverUrl: 'http://127.0.0.1:3000/mcp' } },
};

const userCases = (Object.keys(USER_FILES) as ClientId[]).flatMap((client) => (['darwin', 'win32', 'linux'] as const).map((platform) => [client, platform] as const));

describe('installServer', () => {
  it.each(userCases)('writes %s’s user file for %s and nothing else', async (client, platform) => {
    const root = fixture();
    const changes = await install(root, { clients: [client], platform });
    const path = USER_FILES[client][platform];
    expect(root.snapshot()).toEqual({ [path]: `${JSON.stringify({ [ENTRIES[client].key]: { 'my-server': ENTRIES[client].stdio } }, null, 2)}\n` });
    expect(changes).toMatchObject([{ client, action: 'created', backup: undefined }]);
  });

  it.each(Object.entries(PROJECT_FILES))('writes %s’s project file in the project folder', async (client, path) => {
    const root = fixture();
    await install(root, { clients: [client as ClientId], scope: 'project', platform: 'linux' });
    expect(Object.keys(root.snapshot())).toEqual([path]);
    expect(JSON.parse(root.read(path))).toEqual({ [ENTRIES[client as ClientId].key]: { 'my-server': ENTRIES[client as ClientId].stdio } });
  });

  it.each(['claude-desktop', 'windsurf'] as const)('refuses the project scope for %s, which has no project file', async (client) => {
    const root = fixture();
    await expect(install(root, { clients: [client], scope: 'project', platform: 'linux' })).rejects.toBeInstanceOf(UsageError);
    expect(root.snapshot()).toEqual({});
  });

  it.each(['claude-code', 'cursor', 'vscode', 'windsurf'] as const)('writes a URL the way %s documents it', async (client) => {
    const root = fixture();
    await install(root, { clients: [client], server: HTTP, platform: 'darwin' });
    expect(JSON.parse(root.read(USER_FILES[client].darwin))).toEqual({ [ENTRIES[client].key]: { 'my-server': ENTRIES[client].http } });
  });

  it('refuses a URL for Claude Desktop, whose file holds only commands, and writes nothing', async () => {
    const root = fixture();
    const error = await install(root, { clients: ['claude-desktop', 'cursor'], server: HTTP, platform: 'darwin' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toMatchObject({ reason: 'unsupported-server', file: `${root.home}/Library/Application Support/Claude/claude_desktop_config.json` });
    expect(root.snapshot()).toEqual({});
  });

  it('keeps the other servers and unknown keys of an existing config, and backs it up first', async () => {
    const root = fixture();
    const before = { numStartups: 12, projects: { '/x': { allowedTools: [] } }, mcpServers: { other: { type: 'stdio', command: 'other-server', args: [] } } };
    const original = `${JSON.stringify(before, null, 2)}\n`;
    root.write('home/.claude.json', original);
    const [change] = await install(root, { clients: ['claude-code'], platform: 'linux' });
    const backup = 'home/.claude.json.bak-2026-11-28T14-05-09-123Z';
    expect(change).toMatchObject({ action: 'added', backup: `${root.root}/${backup}` });
    expect(root.snapshot()).toEqual({
      [backup]: original,
      'home/.claude.json': `${JSON.stringify({ ...before, mcpServers: { ...before.mcpServers, 'my-server': ENTRIES['claude-code'].stdio } }, null, 2)}\n`,
    });
  });

  it('refuses an unparsable file with an error naming it, and writes nothing anywhere (not even to the other clients)', async () => {
    const root = fixture();
    root.write('home/.cursor/mcp.json', '{ "mcpServers": { "a": ');
    const before = root.snapshot();
    const error = await install(root, { clients: ['windsurf', 'cursor'], platform: 'linux' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toMatchObject({ reason: 'unparsable', file: `${root.home}/.cursor/mcp.json` });
    expect((error as Error).message).toContain(`${root.home}/.cursor/mcp.json`);
    expect(root.snapshot()).toEqual(before);
  });

  it('refuses a server of the same name without force, and replaces it with force', async () => {
    const root = fixture();
    const original = JSON.stringify({ mcpServers: { 'my-server': { command: 'old' }, other: { command: 'x' } } });
    root.write('home/.codeium/windsurf/mcp_config.json', original);
    await expect(install(root, { clients: ['windsurf'], platform: 'linux' })).rejects.toMatchObject({ reason: 'server-exists' });
    expect(root.read('home/.codeium/windsurf/mcp_config.json')).toBe(original);
    const [change] = await install(root, { clients: ['windsurf'], platform: 'linux', force: true });
    expect(change).toMatchObject({ action: 'replaced', previous: { command: 'old' } });
    expect(JSON.parse(root.read('home/.codeium/windsurf/mcp_config.json'))).toEqual({ mcpServers: { 'my-server': ENTRIES.windsurf.stdio, other: { command: 'x' } } });
    expect(root.read('home/.codeium/windsurf/mcp_config.json.bak-2026-11-28T14-05-09-123Z')).toBe(original);
  });

  it('accepts VS Code’s JSON with comments, and says the comments are not kept (the backup has them)', async () => {
    const root = fixture();
    const original = '{\n  // team servers\n  "servers": {\n    "docs": { "type": "http", "url": "https://example.com/mcp" },\n  },\n  "inputs": [],\n}\n';
    root.write('project/.vscode/mcp.json', original);
    const [change] = await install(root, { clients: ['vscode'], scope: 'project', platform: 'win32' });
    expect(change?.droppedComments).toBe(true);
    expect(JSON.parse(root.read('project/.vscode/mcp.json'))).toEqual({ servers: { docs: { type: 'http', url: 'https://example.com/mcp' }, 'my-server': ENTRIES.vscode.stdio }, inputs: [] });
    expect(root.read('project/.vscode/mcp.json.bak-2026-11-28T14-05-09-123Z')).toBe(original);
    expect(describeChange(change ?? ({} as never), false)).toContain('the backup has them');
  });

  it('writes nothing in a dry run and describes the change', async () => {
    const root = fixture();
    root.write('home/.cursor/mcp.json', JSON.stringify({ mcpServers: { 'my-server': { command: 'old' } } }));
    const before = root.snapshot();
    const [change] = await install(root, { clients: ['cursor'], platform: 'darwin', dryRun: true, force: true });
    expect(root.snapshot()).toEqual(before);
    expect(change?.backup).toBeUndefined();
    const text = describeChange(change ?? ({} as never), true);
    expect(text).toContain(`Cursor: would replace in ${root.home}/.cursor/mcp.json`);
    expect(text).toContain('  - {\n  -   "command": "old"\n  - }');
    expect(text).toContain('  +   "command": "node",');
  });
});

describe('parseInstallArgs', () => {
  it('takes a client, a name and the command after --', () => {
    expect(parseInstallArgs(['--client', 'cursor', '--name', 'my-server', '--', 'node', 'dist/server.js'])).toMatchObject({
      clients: ['cursor'],
      name: 'my-server',
      server: { kind: 'stdio', command: 'node', args: ['dist/server.js'], env: {} },
      force: false,
      dryRun: false,
    });
  });

  it('takes a URL with headers, every client, and the test overrides', () => {
    const options = parseInstallArgs(['--client', 'all', '--name', 's', '--url', 'http://127.0.0.1:3000/mcp', '--header', 'Authorization=Bearer t', '--platform', 'win32', '--home', '/h', '--scope', 'project', '--project-dir', '/p', '--dry-run', '--force']);
    expect(options).toMatchObject({
      clients: ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'],
      server: { kind: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer t' } },
      platform: 'win32',
      home: '/h',
      scope: 'project',
      projectDir: '/p',
      dryRun: true,
      force: true,
    });
  });

  it('collects --env pairs (the value may hold =)', () => {
    expect(parseInstallArgs(['--client', 'vscode', '--name', 's', '--env', 'A=1', '--env', 'B=x=y', '--', 'npx', 'srv']).server).toEqual({ kind: 'stdio', command: 'npx', args: ['srv'], env: { A: '1', B: 'x=y' } });
  });

  it.each([
    [['--name', 's', '--', 'node'], /--client/],
    [['--client', 'cursor', '--', 'node'], /--name/],
    [['--client', 'emacs', '--name', 's', '--', 'node'], /unknown client/],
    [['--client', 'cursor', '--name', 's'], /after --/],
    [['--client', 'cursor', '--name', 's', '--url', 'ftp://x'], /http\(s\) URL/],
    [['--client', 'cursor', '--name', 's', '--url', 'http://x', '--', 'node'], /either --url or a command/],
    [['--client', 'cursor', '--name', 's', '--url', 'http://x', '--env', 'A=1'], /--env is for a command/],
    [['--client', 'cursor', '--name', 's', '--env', 'A', '--', 'node'], /KEY=VALUE/],
    [['--client', 'cursor', '--name', 's', '--platform', 'beos', '--', 'node'], /--platform/],
    [['--client', 'cursor', '--name', 's', 'node'], /after --/],
  ])('refuses %j with a UsageError', (argv, message) => {
    expect(() => parseInstallArgs(argv)).toThrow(message);
    expect(() => parseInstallArgs(argv)).toThrow(UsageError);
  });
});
