/**
 * What a new project is made of, and how the command line says it: the options, their defaults,
 * the flag parser, npm's package-name rules and the package manager that ran `create`.
 */
import { builtinModules } from 'node:module';
import { parseArgs } from 'node:util';
import { CreateStatemcpError } from './errors.js';

/** How the generated server is reached: a child process over stdio, Streamable HTTP, or either (`--http`). */
export type Transport = 'stdio' | 'http' | 'both';
/**
 * Which protocol eras the generated server serves: `both` (the default: the `initialize` handshake
 * for 2024-11-05 … 2025-11-25 clients and stateless 2026-07-28 requests), `modern` (2026-07-28 only)
 * or `legacy` (the handshake revisions only).
 */
export type Era = 'both' | 'modern' | 'legacy';
/** The package manager the project's scripts and install use. */
export type PackageManager = 'npm' | 'pnpm' | 'bun';

/** Everything `createProject()` needs to know about the new project. */
export interface ProjectOptions {
  /** The npm package name; the project directory is its last segment unless `directory` says otherwise. */
  readonly name: string;
  readonly transport: Transport;
  readonly era: Era;
  readonly packageManager: PackageManager;
}

/** What the command line said: every field it did not set is left for the questions or the defaults. */
export interface ParsedFlags {
  readonly name?: string;
  readonly transport?: Transport;
  readonly era?: Era;
  readonly packageManager?: PackageManager;
  /** `--yes`: take the default for every question not answered by a flag. */
  readonly yes: boolean;
  /** `--no-install`: write the files only. */
  readonly install: boolean;
  /** `--force`: write into a directory that is not empty. */
  readonly force: boolean;
  readonly help: boolean;
}

/** The values of `--transport`. */
export const TRANSPORTS: readonly Transport[] = Object.freeze(['stdio', 'http', 'both']);
/** The values of `--era`. */
export const ERAS: readonly Era[] = Object.freeze(['both', 'modern', 'legacy']);
/** The values of `--package-manager`. */
export const PACKAGE_MANAGERS: readonly PackageManager[] = Object.freeze(['npm', 'pnpm', 'bun']);

/** The answers `--yes` takes. */
export const DEFAULTS = Object.freeze({ name: 'my-mcp-server', transport: 'both', era: 'both' } as const);

/** What `--help` prints. */
export const USAGE = `Usage: npm create statemcp@latest [name] -- [flags]

Writes a new MCP server project with statemcp: a server with one tool, one resource and one prompt,
a test that connects a client to it in memory, and the scripts dev, build, start, test and inspect.
Asks for what the flags leave open (or takes the defaults with --yes).

  --name <name>                 the npm package name; also the directory (default ${DEFAULTS.name})
  --transport stdio|http|both   how clients reach the server (default ${DEFAULTS.transport})
  --era both|modern|legacy      protocol eras served: the 2026-07-28 revision, the handshake
                                revisions (2024-11-05 … 2025-11-25), or both (default ${DEFAULTS.era})
  --package-manager npm|pnpm|bun  (default: the one running this command)
  --yes, -y                     take the defaults for everything not given
  --no-install                  write the files but do not install the dependencies
  --force                       write into a directory that is not empty
  --help, -h                    print this
`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CreateStatemcpError('INVALID_OPTION', `--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
}

/** Parses the command line (the arguments after the command). Unknown flags and bad values throw `INVALID_OPTION`. */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  // node:util's parseArgs learned `--no-` negation only in Node 22, so `--no-install` is taken out first.
  const install = !argv.includes('--no-install');
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((arg) => arg !== '--no-install'),
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        transport: { type: 'string' },
        era: { type: 'string' },
        'package-manager': { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CreateStatemcpError('INVALID_OPTION', `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new CreateStatemcpError('INVALID_OPTION', `one project name at most (got ${positionals.join(', ')})`);
  if (values.name !== undefined && positionals[0] !== undefined && values.name !== positionals[0]) {
    throw new CreateStatemcpError('INVALID_OPTION', `two names given: "${positionals[0]}" and --name "${values.name}"`);
  }
  const name = values.name ?? positionals[0];
  const transport = oneOf('transport', values.transport, TRANSPORTS);
  const era = oneOf('era', values.era, ERAS);
  const packageManager = oneOf('package-manager', values['package-manager'], PACKAGE_MANAGERS);
  return {
    ...(name === undefined ? {} : { name }),
    ...(transport === undefined ? {} : { transport }),
    ...(era === undefined ? {} : { era }),
    ...(packageManager === undefined ? {} : { packageManager }),
    yes: values.yes === true,
    install,
    force: values.force === true,
    help: values.help === true,
  };
}

/**
 * Why `name` cannot be an npm package name, or `undefined` when it can. The rules of
 * https://docs.npmjs.com/cli/v10/configuring-npm/package-json#name: at most 214 characters, lower
 * case, URL-safe, not starting with `.` or `_`, no spaces or `~'!()*`, an optional `@scope/` prefix,
 * and not a Node.js built-in module name.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > 214) return 'the name is longer than 214 characters';
  if (name.trim() !== name) return 'the name starts or ends with a space';
  if (name.toLowerCase() !== name) return 'the name has upper-case letters';
  const scoped = /^@([^/]+)\/([^/]+)$/.exec(name);
  if (name.startsWith('@') && scoped === null) return 'a scoped name is @scope/name';
  for (const part of scoped === null ? [name] : [scoped[1] ?? '', scoped[2] ?? '']) {
    if (part.startsWith('.') || part.startsWith('_')) return 'the name starts with "." or "_"';
    if (/[~'!()*\s]/.test(part)) return 'the name has a space or one of ~\'!()*';
    if (encodeURIComponent(part) !== part) return 'the name has characters that are not URL-safe';
  }
  const bare = scoped?.[2] ?? name;
  if (bare === 'node_modules' || bare === 'favicon.ico') return `"${bare}" is reserved`;
  if (scoped === null && builtinModules.includes(name)) return `"${name}" is a Node.js built-in module`;
  return undefined;
}

/** Throws `INVALID_NAME` when `name` is not a valid npm package name (see `nameProblem`). */
export function validateProjectName(name: string): string {
  const problem = nameProblem(name);
  if (problem !== undefined) throw new CreateStatemcpError('INVALID_NAME', `"${name}" is not a valid npm package name: ${problem}`);
  return name;
}

/**
 * The package manager that ran `create`, from `npm_config_user_agent` (`pnpm/10.34.8 npm/? node/v20…`,
 * `bun/1.2.0 …`, `npm/10.8.2 node/v20…`); npm when it names none of the three.
 */
export function detectPackageManager(userAgent: string | undefined): PackageManager {
  const first = userAgent?.split(' ')[0]?.split('/')[0];
  return first === 'pnpm' || first === 'bun' ? first : 'npm';
}

/** The directory name of a package name: its last segment (`@acme/weather` → `weather`). */
export function directoryFor(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}
