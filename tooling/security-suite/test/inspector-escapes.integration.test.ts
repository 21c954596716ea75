/**
 * Inspector terminal escapes (issue 32, finding "the inspector CLI prints a server's
 * `serverInfo.name` with terminal escapes"): `statemcp-inspect` runs as a real process against
 * a real stdio server whose name, version and title carry an OSC window-title change, a screen
 * clear, a C1 CSI and a bidi override, and which writes escapes to its stderr; and against one
 * that refuses `initialize` with such an error message. Nothing the CLI prints may hold ESC,
 * BEL, any other control character but tab and line feed, or a bidi formatting character; what
 * the server sent stays readable as visible escapes.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../fixtures/inspector-escapes-cli.ts', import.meta.url));
const SERVER = fileURLToPath(new URL('../fixtures/inspector-escapes-server.ts', import.meta.url));

/** What a terminal acts on or reorders by: C0 but tab and line feed, DEL, C1, bidi formatting characters. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

interface CliRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/** Runs `statemcp-inspect -- <hostile server>`; sends SIGINT once it says it is connected (or lets it fail). */
async function inspect(serverArgs: readonly string[]): Promise<CliRun> {
  // Both fixtures bundled from source once per test process (`@statemcp/testing/node-bundle`).
  const [cli, server] = await Promise.all([bundleNodeScript(CLI), bundleNodeScript(SERVER)]);
  const child = spawn(process.execPath, [cli, '--', process.execPath, server, ...serverArgs], { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    // Connected and the server's stderr line relayed: stop it the way a user does, with Ctrl-C.
    if (stdout.includes('Ctrl-C to close') && stderr.includes('hostile server ready')) child.kill('SIGINT');
  });
  child.stderr.on('data', () => {
    if (stdout.includes('Ctrl-C to close') && stderr.includes('hostile server ready')) child.kill('SIGINT');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { stdout, stderr, code };
}

describe('statemcp-inspect against a server that sends terminal escapes', () => {
  it('prints the server name, version and stderr with the escapes shown as text, never sent to the terminal', async () => {
    const run = await inspect([]);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain('connected to evil\\x1b]0;pwned\\x07\\x1b[2J 6.6.6\\x9b2J\\u202e');
    expect(run.stderr).toContain('hostile server ready \\x1b[31mred\\x1b[0m\\x07 \\u202eesrever');
    expect(run.code).toBe(0);
  });

  it('prints an error message the server chose with the escapes shown as text', async () => {
    const run = await inspect(['--fail-initialize']);
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('statemcp-inspect: ');
    expect(run.stderr).toContain('refused\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202edetacilpmoc');
  });
});
