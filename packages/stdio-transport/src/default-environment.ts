/**
 * The environment a spawned MCP server starts with. By default a child does not inherit
 * this process's whole environment (which may hold secrets meant for the host only), but
 * an allow-list of variables that programs need to start at all. On Windows that includes
 * `PATHEXT`, `COMSPEC`, `WINDIR`, `SYSTEMROOT` and the `PROGRAMFILES` family, without which
 * `npx`, `.cmd` shims and many runtimes fail to launch. User-supplied variables go on top.
 */

/** Variables inherited by default on POSIX systems. */
export const DEFAULT_INHERITED_ENV_VARS_POSIX: readonly string[] = Object.freeze([
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
]);

/** Variables inherited by default on Windows (names compared case-insensitively). */
export const DEFAULT_INHERITED_ENV_VARS_WIN32: readonly string[] = Object.freeze([
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMW6432',
  'COMMONPROGRAMFILES',
  'COMMONPROGRAMFILES(X86)',
  'COMMONPROGRAMW6432',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
]);

/** Where the default environment of a spawned server is read from: the platform whose allow-list applies and the source environment. */
export interface DefaultEnvironmentOptions {
  /** Platform whose allow-list applies. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Environment to read from. Default `process.env`. */
  source?: Readonly<Record<string, string | undefined>>;
}

/**
 * The allow-listed subset of an environment for a child process.
 *
 * Values that look like exported shell functions (starting with `()`) are skipped. On
 * Windows, names match case-insensitively and keep the spelling found in the source
 * (`Path` stays `Path`).
 *
 * @example
 * ```ts
 * const env = { ...getDefaultEnvironment(), MY_TOKEN: 'secret-for-the-server' };
 * ```
 */
export function getDefaultEnvironment(options: DefaultEnvironmentOptions = {}): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const source = options.source ?? process.env;
  const result: Record<string, string> = {};
  if (platform === 'win32') {
    const wanted = new Set(DEFAULT_INHERITED_ENV_VARS_WIN32);
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined || !wanted.has(name.toUpperCase()) || isShellFunction(value)) continue;
      result[name] = value;
    }
    return result;
  }
  for (const name of DEFAULT_INHERITED_ENV_VARS_POSIX) {
    const value = source[name];
    if (value === undefined || isShellFunction(value)) continue;
    result[name] = value;
  }
  return result;
}

/**
 * The environment for a child: {@link getDefaultEnvironment} with `overrides` on top.
 * An override whose value is `undefined` removes the variable. On Windows an override
 * replaces a default whose name differs only in case (`PATH` replaces `Path`).
 */
export function buildChildEnvironment(
  overrides: Readonly<Record<string, string | undefined>> | undefined,
  options: DefaultEnvironmentOptions = {},
): Record<string, string> {
  const platform = options.platform ?? process.platform;
  const env = getDefaultEnvironment(options);
  if (overrides === undefined) return env;
  for (const [name, value] of Object.entries(overrides)) {
    if (platform === 'win32') {
      const upper = name.toUpperCase();
      for (const existing of Object.keys(env)) {
        if (existing.toUpperCase() === upper) delete env[existing];
      }
    } else {
      delete env[name];
    }
    if (value !== undefined) env[name] = value;
  }
  return env;
}

function isShellFunction(value: string): boolean {
  return value.startsWith('()');
}
