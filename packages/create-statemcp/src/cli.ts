/**
 * The `create-statemcp` command (what `npm create statemcp@latest` runs): reads the flags, asks
 * for what they leave open, writes the project, installs its dependencies and says what to run next.
 */
import { spawn } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { createProject } from './create-project.js';
import { CreateStatemcpError } from './errors.js';
import {
  DEFAULTS,
  detectPackageManager,
  directoryFor,
  ERAS,
  nameProblem,
  parseFlags,
  TRANSPORTS,
  USAGE,
  type Era,
  type PackageManager,
  type ProjectOptions,
  type Transport,
} from './options.js';
import { runScript, type DependencyVersions } from './template/project-files.js';
import { packagedVersions } from './versions.js';

/** What the command talks to; every field has a default for the real terminal, tests pass their own. */
export interface CliEnvironment {
  /** Where the project directory is created. */
  readonly cwd: string;
  /** The environment (`npm_config_user_agent` names the package manager). */
  readonly env: NodeJS.ProcessEnv;
  /** Prints a line of progress or the next steps (stdout). */
  readonly out: (line: string) => void;
  /** Prints a line about a problem (stderr). */
  readonly err: (line: string) => void;
  /** Asks one question and resolves with the answer; `undefined` when there is no one to ask (not a terminal). */
  readonly ask: ((question: string) => Promise<string>) | undefined;
  /** The dependency ranges of the project (versions.json, written when this package is built). */
  readonly versions: () => DependencyVersions;
  /** Installs the dependencies in `directory` with `manager`; rejects when the install fails. */
  readonly install: (manager: PackageManager, directory: string) => Promise<void>;
}

function installWith(manager: PackageManager, directory: string): Promise<void> {
  return new Promise((resolveInstall, reject) => {
    const child = spawn(manager, ['install'], { cwd: directory, stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolveInstall();
      else reject(new Error(`${manager} install exited with ${signal ?? code}`));
    });
  });
}

/**
 * The real terminal; `close()` ends the one readline interface the questions share (opened by the
 * first). Answers are read as lines from it, so lines typed ahead wait for their question.
 */
function terminalEnvironment(): CliEnvironment & { close(): void } {
  const interactive = process.stdin.isTTY && process.stdout.isTTY;
  let readline: Interface | undefined;
  let lines: AsyncIterator<string> | undefined;
  return {
    cwd: process.cwd(),
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    ask: interactive
      ? async (question) => {
          readline ??= createInterface({ input: process.stdin, output: process.stdout });
          lines ??= readline[Symbol.asyncIterator]();
          readline.setPrompt(question);
          readline.prompt();
          const next = await lines.next();
          // Ctrl+D (end of input) or Ctrl+C (the interface closes) at a question.
          if (next.done === true) throw new CreateStatemcpError('CANCELLED', 'cancelled; nothing was written');
          return next.value;
        }
      : undefined,
    versions: () => packagedVersions(),
    install: installWith,
    close: () => readline?.close(),
  };
}

/** Asks until the answer is empty (the default) or passes `check` (which returns the problem, if any). */
async function askUntilValid(ask: (question: string) => Promise<string>, err: (line: string) => void, question: string, fallback: string, check: (answer: string) => string | undefined): Promise<string> {
  for (;;) {
    const answer = (await ask(`${question} (${fallback}): `)).trim();
    const value = answer === '' ? fallback : answer;
    const problem = check(value);
    if (problem === undefined) return value;
    err(`  ${problem}`);
  }
}

const choice = (allowed: readonly string[]) => (answer: string) => (allowed.includes(answer) ? undefined : `one of ${allowed.join(', ')}`);

/** Runs the command with `argv` (the arguments after it); resolves with the exit code. */
export async function main(argv: readonly string[], environment: Partial<CliEnvironment> = {}): Promise<number> {
  const terminal = terminalEnvironment();
  const io = { ...terminal, ...environment };
  try {
    const flags = parseFlags(argv);
    if (flags.help) {
      io.out(USAGE);
      return 0;
    }
    const ask = flags.yes ? undefined : io.ask;
    const options: ProjectOptions = {
      name: flags.name ?? (ask === undefined ? DEFAULTS.name : await askUntilValid(ask, io.err, 'Project name', DEFAULTS.name, nameProblem)),
      transport: flags.transport ?? (ask === undefined ? DEFAULTS.transport : ((await askUntilValid(ask, io.err, 'Transport: stdio, http or both', DEFAULTS.transport, choice(TRANSPORTS))) as Transport)),
      era: flags.era ?? (ask === undefined ? DEFAULTS.era : ((await askUntilValid(ask, io.err, 'Protocol eras served: both, modern (2026-07-28) or legacy (handshake)', DEFAULTS.era, choice(ERAS))) as Era)),
      packageManager: flags.packageManager ?? detectPackageManager(io.env['npm_config_user_agent']),
    };
    terminal.close();
    const directory = resolve(io.cwd, directoryFor(options.name));
    createProject({ ...options, directory, versions: io.versions(), force: flags.force });
    io.out(`Created ${options.name} in ${directory} (transport ${options.transport}, eras ${options.era}).`);
    if (flags.install) {
      io.out(`Installing the dependencies with ${options.packageManager}…`);
      try {
        await io.install(options.packageManager, directory);
      } catch (error) {
        throw new CreateStatemcpError('INSTALL_FAILED', `the files are written, but ${options.packageManager} install failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    const run = (script: string) => runScript(options.packageManager, script);
    const steps: [string, string][] = [
      [`cd ${relative(io.cwd, directory) || '.'}`, ''],
      ...(flags.install ? [] : [[`${options.packageManager} install`, ''] as [string, string]]),
      [run('test'), 'the test: a client connected to the server in memory'],
      [run('dev'), 'serves src/server.ts, reloading it on every save'],
    ];
    const width = Math.max(...steps.map(([command]) => command.length));
    io.out(`\nNext:\n${steps.map(([command, why]) => (why === '' ? `  ${command}` : `  ${command.padEnd(width)}  # ${why}`)).join('\n')}`);
    return 0;
  } catch (error) {
    if (!CreateStatemcpError.is(error)) throw error;
    io.err(`create-statemcp: ${error.message}`);
    return error.code === 'INVALID_OPTION' || error.code === 'INVALID_NAME' ? 2 : error.code === 'CANCELLED' ? 130 : 1;
  } finally {
    terminal.close();
  }
}
