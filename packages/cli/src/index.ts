/**
 * @statemcp/cli — the `statemcp` command, and the same as functions: `startDevServer()` serves
 * an entry module over stdio and Streamable HTTP and reloads it in place on every edit without
 * dropping client sessions; `installServer()` adds a server to the config files of Claude
 * Desktop, Claude Code, Cursor, VS Code and Windsurf (backed up, written atomically).
 */
export { startDevServer } from './dev/dev-server.js';
export type { DevServer, DevServerOptions, ReloadOutcome } from './dev/dev-server.js';
export type { DisposeServerModule, RegisterServer } from './dev/entry-module.js';
export type { RegistrationDiff, RegistrationKind } from './dev/registrations.js';
export { parseDevArgs } from './dev/dev-command.js';

export { installServer, parseInstallArgs, pathLayout } from './install/install-command.js';
export type { InstallChange, InstallOptions } from './install/install-command.js';
export { CLIENT_FORMATS, CLIENT_IDS } from './install/clients.js';
export type { ClientFormat, ClientId, InstallPlatform, InstallScope, PathLayout, ServerSpec } from './install/clients.js';

export { ConfigFileError, EntryModuleError, UsageError } from './errors.js';
export type { ConfigFileProblem, EntryModuleProblem } from './errors.js';

export { main } from './cli.js';
