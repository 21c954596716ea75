/**
 * Where each MCP client keeps its server list, and how it writes one server — as each client
 * documents it (checked 2026-11-28):
 *
 * | client | user file | project file | key | stdio entry | URL entry |
 * |---|---|---|---|---|---|
 * | Claude Desktop | macOS `~/Library/Application Support/Claude/claude_desktop_config.json`, Windows `%APPDATA%\Claude\…`, Linux `~/.config/Claude/…` | — | `mcpServers` | `command`, `args`, `env` | none (remote servers are added as connectors in the app) |
 * | Claude Code | `~/.claude.json` (user scope) | `.mcp.json` | `mcpServers` | `type: "stdio"`, `command`, `args`, `env` | `type: "http"`, `url`, `headers` |
 * | Cursor | `~/.cursor/mcp.json` | `.cursor/mcp.json` | `mcpServers` | `command`, `args`, `env` | `url`, `headers` |
 * | VS Code | the profile's `User/mcp.json` (beside `settings.json`) | `.vscode/mcp.json` | `servers` | `type: "stdio"`, `command`, `args`, `env` | `type: "http"`, `url`, `headers` |
 * | Windsurf | `~/.codeium/windsurf/mcp_config.json` | — | `mcpServers` | `command`, `args`, `env` | `serverUrl`, `headers` |
 *
 * Sources: https://modelcontextprotocol.io/quickstart/user (Claude Desktop),
 * https://code.claude.com/docs/en/mcp (Claude Code), https://cursor.com/docs/mcp (Cursor),
 * https://code.visualstudio.com/docs/copilot/reference/mcp-configuration (VS Code, whose
 * `mcp.json` is JSON with comments), https://docs.windsurf.com/windsurf/cascade/mcp (Windsurf).
 */
import { join } from 'node:path';
import { ConfigFileError } from '../errors.js';

/** The MCP clients `statemcp install` knows. */
export const CLIENT_IDS = Object.freeze(['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'] as const);

/** One of {@link CLIENT_IDS}. */
export type ClientId = (typeof CLIENT_IDS)[number];

/** `user`: the client's file in the home directory; `project`: the file in the project directory. */
export type InstallScope = 'user' | 'project';

/** The operating systems whose file layout is known. */
export type InstallPlatform = 'darwin' | 'win32' | 'linux';

/** What to install: a command the client starts (stdio) or the URL of a Streamable HTTP server. */
export type ServerSpec =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** The directories the config paths are made from. */
export interface PathLayout {
  readonly platform: InstallPlatform;
  /** The home directory (`~`, `%USERPROFILE%`). */
  readonly home: string;
  /** Windows' `%APPDATA%` (default `<home>\AppData\Roaming`). */
  readonly appData: string;
  /** Linux's `$XDG_CONFIG_HOME` (default `<home>/.config`). */
  readonly configHome: string;
  /** The project directory, for the project scope. */
  readonly projectDir: string;
}

/** How one client stores its servers. */
export interface ClientFormat {
  readonly id: ClientId;
  readonly displayName: string;
  /** The top-level key that maps server names to entries. */
  readonly serversKey: 'mcpServers' | 'servers';
  /** Whether the client's format allows comments and trailing commas (JSON with comments). */
  readonly allowsComments: boolean;
  /** The config file for `scope`, or `undefined` when the client has no such file. */
  path(layout: PathLayout, scope: InstallScope): string | undefined;
  /** The entry for `spec`; throws a `ConfigFileError` (`unsupported-server`) when the client cannot hold it. */
  entry(spec: ServerSpec, file: string): Record<string, unknown>;
}

/** The per-user application data folder of a desktop app (macOS, Windows, Linux). */
function appSupport(layout: PathLayout): string {
  switch (layout.platform) {
    case 'darwin':
      return join(layout.home, 'Library', 'Application Support');
    case 'win32':
      return layout.appData;
    case 'linux':
      return layout.configHome;
  }
}

const withOptional = (entry: Record<string, unknown>, key: string, map: Readonly<Record<string, string>>): Record<string, unknown> =>
  Object.keys(map).length === 0 ? entry : { ...entry, [key]: { ...map } };

/** `{ command, args, env }`, with `type: "stdio"` first where the client wants it. */
function stdioEntry(spec: Extract<ServerSpec, { kind: 'stdio' }>, typed: boolean): Record<string, unknown> {
  return withOptional({ ...(typed ? { type: 'stdio' } : {}), command: spec.command, args: [...spec.args] }, 'env', spec.env);
}

function httpEntry(spec: Extract<ServerSpec, { kind: 'http' }>, urlKey: 'url' | 'serverUrl', typed: boolean): Record<string, unknown> {
  return withOptional({ ...(typed ? { type: 'http' } : {}), [urlKey]: spec.url }, 'headers', spec.headers);
}

/** Every client's format, by id. */
export const CLIENT_FORMATS: Readonly<Record<ClientId, ClientFormat>> = Object.freeze({
  'claude-desktop': {
    id: 'claude-desktop',
    displayName: 'Claude Desktop',
    serversKey: 'mcpServers',
    allowsComments: false,
    path: (layout, scope) => (scope === 'user' ? join(appSupport(layout), 'Claude', 'claude_desktop_config.json') : undefined),
    entry: (spec, file) => {
      if (spec.kind === 'stdio') return stdioEntry(spec, false);
      throw new ConfigFileError(
        'unsupported-server',
        file,
        `Claude Desktop's config file holds only servers it starts (a command): add ${spec.url} in the app under Settings > Connectors, or install a command`,
      );
    },
  },
  'claude-code': {
    id: 'claude-code',
    displayName: 'Claude Code',
    serversKey: 'mcpServers',
    allowsComments: false,
    path: (layout, scope) => (scope === 'user' ? join(layout.home, '.claude.json') : join(layout.projectDir, '.mcp.json')),
    entry: (spec) => (spec.kind === 'stdio' ? stdioEntry(spec, true) : httpEntry(spec, 'url', true)),
  },
  cursor: {
    id: 'cursor',
    displayName: 'Cursor',
    serversKey: 'mcpServers',
    allowsComments: false,
    path: (layout, scope) => join(scope === 'user' ? layout.home : layout.projectDir, '.cursor', 'mcp.json'),
    entry: (spec) => (spec.kind === 'stdio' ? stdioEntry(spec, false) : httpEntry(spec, 'url', false)),
  },
  vscode: {
    id: 'vscode',
    displayName: 'VS Code',
    serversKey: 'servers',
    allowsComments: true,
    path: (layout, scope) => (scope === 'user' ? join(appSupport(layout), 'Code', 'User', 'mcp.json') : join(layout.projectDir, '.vscode', 'mcp.json')),
    entry: (spec) => (spec.kind === 'stdio' ? stdioEntry(spec, true) : httpEntry(spec, 'url', true)),
  },
  windsurf: {
    id: 'windsurf',
    displayName: 'Windsurf',
    serversKey: 'mcpServers',
    allowsComments: false,
    path: (layout, scope) => (scope === 'user' ? join(layout.home, '.codeium', 'windsurf', 'mcp_config.json') : undefined),
    entry: (spec) => (spec.kind === 'stdio' ? stdioEntry(spec, false) : httpEntry(spec, 'serverUrl', false)),
  },
});

/** Whether `value` names a known client. */
export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}
