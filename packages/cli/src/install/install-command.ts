/**
 * `statemcp install`: adds one server to the config files of the chosen MCP clients. Every file
 * is read and edited in memory first; only when all of them can take the server is anything
 * written (each file backed up, then replaced atomically). `--dry-run` prints the change and
 * writes nothing.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { CLIENT_FORMATS, CLIENT_IDS, isClientId, type ClientId, type InstallPlatform, type InstallScope, type PathLayout, type ServerSpec } from './clients.js';
import { addServer, backupFile, formatConfig, readConfig, writeFileAtomic } from './config-file.js';

/** What `installServer` does. */
export interface InstallOptions {
  /** The clients whose config files get the server. */
  readonly clients: readonly ClientId[];
  /** The server's name in those files. */
  readonly name: string;
  /** The command to start it, or the URL it serves at. */
  readonly server: ServerSpec;
  /** `user` (default): the files in the home directory; `project`: the files in `projectDir`. */
  readonly scope?: InstallScope;
  /** Replace a server of the same name (default false: refuse). */
  readonly force?: boolean;
  /** Compute and report the change, write nothing. */
  readonly dryRun?: boolean;
  /** The file layout to use (default: this machine's). */
  readonly platform?: InstallPlatform;
  /** The home directory (default: the user's); `%APPDATA%` and `~/.config` are then taken under it. */
  readonly home?: string;
  /** The project directory for the project scope (default: the current directory). */
  readonly projectDir?: string;
  /** The environment `%APPDATA%` and `$XDG_CONFIG_HOME` are read from when `home` is not given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock of the backup file names. */
  readonly now?: () => Date;
}

/** What happened (or, in a dry run, would happen) to one client's config file. */
export interface InstallChange {
  readonly client: ClientId;
  readonly file: string;
  /** `created`: the file did not exist; `added`: a new server in an existing file; `replaced`: `--force` over a server of the same name. */
  readonly action: 'created' | 'added' | 'replaced';
  /** The entry written under the server's name. */
  readonly entry: Record<string, unknown>;
  /** The entry it replaced (`replaced` only). */
  readonly previous: unknown;
  /** The file's new text. */
  readonly text: string;
  /** The backup of the old file (not in a dry run, nor for a new file). */
  readonly backup: string | undefined;
  /** The old file had comments, which the rewritten file does not keep (the backup has them). */
  readonly droppedComments: boolean;
}

const PLATFORMS: readonly InstallPlatform[] = ['darwin', 'win32', 'linux'];

/** The directories the config paths of `options` are made from. */
export function pathLayout(options: Pick<InstallOptions, 'platform' | 'home' | 'projectDir' | 'env'>): PathLayout {
  const platform = options.platform ?? PLATFORMS.find((name) => name === process.platform);
  if (platform === undefined) throw new UsageError(`no known config layout for platform ${process.platform}; pass --platform darwin, win32 or linux`);
  const env = options.home === undefined ? (options.env ?? process.env) : {};
  const home = resolve(options.home ?? homedir());
  return {
    platform,
    home,
    appData: env.APPDATA ?? join(home, 'AppData', 'Roaming'),
    configHome: env.XDG_CONFIG_HOME ?? join(home, '.config'),
    projectDir: resolve(options.projectDir ?? process.cwd()),
  };
}

/**
 * Adds the server to every chosen client's config file (or, with `dryRun`, only computes the
 * change). Nothing is written unless every file can take it: an unparsable file, a server of
 * the same name (without `force`) or a server kind the client cannot hold throws a
 * `ConfigFileError` naming the file, before any write.
 */
export async function installServer(options: InstallOptions): Promise<InstallChange[]> {
  if (options.name.trim() === '') throw new UsageError('the server needs a name (--name)');
  if (options.clients.length === 0) throw new UsageError(`choose a client with --client (${CLIENT_IDS.join(', ')} or all)`);
  const layout = pathLayout(options);
  const scope = options.scope ?? 'user';
  const planned: InstallChange[] = [];
  for (const client of new Set(options.clients)) {
    const format = CLIENT_FORMATS[client];
    const file = format.path(layout, scope);
    if (file === undefined) throw new UsageError(`${format.displayName} has no ${scope}-scope config file; use --scope user`);
    const entry = format.entry(options.server, file);
    const config = await readConfig(file, format.allowsComments);
    const edit = addServer(config, format.serversKey, options.name, entry, options.force === true);
    planned.push({
      client,
      file,
      action: !config.exists ? 'created' : edit.previous === undefined ? 'added' : 'replaced',
      entry,
      previous: edit.previous,
      text: formatConfig(config, edit.document),
      backup: undefined,
      droppedComments: config.exists && config.hasComments,
    });
  }
  if (options.dryRun === true) return planned;
  const now = options.now ?? (() => new Date());
  const done: InstallChange[] = [];
  for (const change of planned) {
    const backup = change.action === 'created' ? undefined : await backupFile(change.file, now());
    await writeFileAtomic(change.file, change.text);
    done.push({ ...change, backup });
  }
  return done;
}

/** The change to one file as the command prints it: the entry removed (`-`) and added (`+`). */
export function describeChange(change: InstallChange, dryRun: boolean): string {
  const verb = { created: dryRun ? 'would create' : 'created', added: dryRun ? 'would add to' : 'added to', replaced: dryRun ? 'would replace in' : 'replaced in' }[change.action];
  const lines = [`${CLIENT_FORMATS[change.client].displayName}: ${verb} ${change.file}`];
  const block = (prefix: string, value: unknown) => JSON.stringify(value, null, 2).split('\n').map((line) => `  ${prefix} ${line}`);
  if (change.previous !== undefined) lines.push(...block('-', change.previous));
  lines.push(...block('+', change.entry));
  if (change.backup !== undefined) lines.push(`  backup: ${change.backup}`);
  if (change.droppedComments) lines.push(`  note: the rewritten file does not keep the old file's comments${dryRun ? '' : ' (the backup has them)'}`);
  return lines.join('\n');
}

export const INSTALL_USAGE = `Usage:
  statemcp install --client <client> --name <name> [options] -- <command> [args...]
  statemcp install --client <client> --name <name> --url <url> [options]

Adds an MCP server to the config files of MCP clients. Every file edited is backed up first
(<file>.bak-<timestamp>) and replaced atomically; other servers and keys are kept.

Clients (repeat --client, or --client all): ${CLIENT_IDS.join(', ')}

Options:
  --scope user|project   the file in your home directory (default) or in the project directory
  --url <url>            a Streamable HTTP server instead of a command
  --header KEY=VALUE     an HTTP header for --url (repeatable)
  --env KEY=VALUE        an environment variable for the command (repeatable)
  --force                replace a server of the same name
  --dry-run              print the change, write nothing
  --platform <os>        darwin, win32 or linux (default: this machine)
  --home <dir>           the home directory to use (default: yours)
  --project-dir <dir>    the project directory for --scope project (default: the current one)`;

/** Splits `KEY=VALUE` (the key non-empty). */
function keyValue(flag: string, value: string): [string, string] {
  const equals = value.indexOf('=');
  if (equals <= 0) throw new UsageError(`${flag} takes KEY=VALUE, got ${JSON.stringify(value)}`);
  return [value.slice(0, equals), value.slice(equals + 1)];
}

/** Parses the arguments after `statemcp install`; throws a `UsageError` saying what is wrong. */
export function parseInstallArgs(argv: readonly string[]): InstallOptions {
  const dash = argv.indexOf('--');
  const flags = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const clients: ClientId[] = [];
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let name: string | undefined;
  let url: string | undefined;
  let scope: InstallScope | undefined;
  let platform: InstallPlatform | undefined;
  let home: string | undefined;
  let projectDir: string | undefined;
  let force = false;
  let dryRun = false;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] ?? '';
    const value = (): string => {
      const next = flags[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--client': {
        const id = value();
        if (id === 'all') clients.push(...CLIENT_IDS);
        else if (isClientId(id)) clients.push(id);
        else throw new UsageError(`unknown client ${JSON.stringify(id)}; choose from ${CLIENT_IDS.join(', ')} or all`);
        break;
      }
      case '--name':
        name = value();
        break;
      case '--url':
        url = value();
        break;
      case '--env':
        Object.assign(env, Object.fromEntries([keyValue(flag, value())]));
        break;
      case '--header':
        Object.assign(headers, Object.fromEntries([keyValue(flag, value())]));
        break;
      case '--scope': {
        const chosen = value();
        if (chosen !== 'user' && chosen !== 'project') throw new UsageError('--scope is user or project');
        scope = chosen;
        break;
      }
      case '--platform': {
        const chosen = value();
        if (!(PLATFORMS as readonly string[]).includes(chosen)) throw new UsageError('--platform is darwin, win32 or linux');
        platform = chosen as InstallPlatform;
        break;
      }
      case '--home':
        home = value();
        break;
      case '--project-dir':
        projectDir = value();
        break;
      case '--force':
        force = true;
        break;
      case '--dry-run':
        dryRun = true;
        break;
      default:
        throw new UsageError(`unknown option ${JSON.stringify(flag)}${flag.startsWith('-') ? '' : ' (put the server command after --)'}`);
    }
  }
  if (clients.length === 0) throw new UsageError(`choose a client with --client (${CLIENT_IDS.join(', ')} or all)`);
  if (name === undefined) throw new UsageError('the server needs a name: --name <name>');
  let server: ServerSpec;
  if (url !== undefined) {
    if (command.length > 0) throw new UsageError('give either --url or a command after --, not both');
    if (Object.keys(env).length > 0) throw new UsageError('--env is for a command the client starts; a URL takes --header');
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`);
    server = { kind: 'http', url, headers };
  } else {
    const [program, ...args] = command;
    if (program === undefined || program === '') throw new UsageError('give the command that starts the server after -- (e.g. -- node dist/server.js), or --url');
    if (Object.keys(headers).length > 0) throw new UsageError('--header is for --url; a command takes --env');
    server = { kind: 'stdio', command: program, args, env };
  }
  return {
    clients,
    name,
    server,
    force,
    dryRun,
    ...(scope === undefined ? {} : { scope }),
    ...(platform === undefined ? {} : { platform }),
    ...(home === undefined ? {} : { home }),
    ...(projectDir === undefined ? {} : { projectDir }),
  };
}
