/**
 * The errors the `statemcp` command raises, in statemcp's one error family (`McpError` from
 * `@statemcp/protocol`, stable string code `INVALID_ARGUMENT`, a `Symbol.for` brand so
 * `instanceof` survives duplicated bundles). Each carries a `reason` to branch on and names
 * the file or module it is about.
 */
import { LocalErrorCode, McpError } from '@statemcp/protocol';

/** Why `statemcp install` refused a client config file. */
export type ConfigFileProblem =
  /** The file is not JSON (or, for VS Code, not JSON with comments). */
  | 'unparsable'
  /** The file parses, but the document or its servers key is not an object. */
  | 'unexpected-shape'
  /** A server of the same name is already there (pass `--force` to replace it). */
  | 'server-exists'
  /** The client's config file cannot hold this kind of server (e.g. a URL for Claude Desktop). */
  | 'unsupported-server';

/** `statemcp install` would not edit a client's config file; nothing was written. */
export class ConfigFileError extends McpError {
  override readonly name: string = 'ConfigFileError';
  readonly reason: ConfigFileProblem;
  /** The config file in question. */
  readonly file: string;
  constructor(reason: ConfigFileProblem, file: string, message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.InvalidArgument, message, options);
    this.reason = reason;
    this.file = file;
  }
}

/** Why `statemcp dev` could not use a version of the entry module. */
export type EntryModuleProblem =
  /** Importing it failed: a syntax error, a missing import, or its top level threw. */
  | 'load-failed'
  /** Its default export is not a function `(server) => …`. */
  | 'bad-export'
  /** Its register function threw, or a registration it made was refused. */
  | 'register-failed';

/** A version of the entry module could not be used; the last good version keeps serving. */
export class EntryModuleError extends McpError {
  override readonly name: string = 'EntryModuleError';
  readonly reason: EntryModuleProblem;
  /** The entry module's path. */
  readonly file: string;
  constructor(reason: EntryModuleProblem, file: string, message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.InvalidArgument, message, options);
    this.reason = reason;
    this.file = file;
  }
}

/** A command line `statemcp` does not understand (the message says what to change). */
export class UsageError extends McpError {
  override readonly name: string = 'UsageError';
  constructor(message: string) {
    super(LocalErrorCode.InvalidArgument, message);
  }
}
