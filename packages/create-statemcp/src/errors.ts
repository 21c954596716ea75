/**
 * The one error create-statemcp throws for anything the user can fix. This package has no runtime
 * dependency (so `npm create` starts fast), hence its own small class, shaped like statemcp's error
 * family: a stable string `code` to branch on and a message that says what to do.
 */

/** The stable codes of `CreateStatemcpError`. */
export type CreateStatemcpErrorCode =
  /** A flag is unknown or has a value outside its choices. */
  | 'INVALID_OPTION'
  /** The project name is not a valid npm package name. */
  | 'INVALID_NAME'
  /** The target directory exists and is not empty (pass `--force` to write into it anyway). */
  | 'TARGET_NOT_EMPTY'
  /** The dependencies could not be installed (the files are written). */
  | 'INSTALL_FAILED'
  /** The package's versions.json is missing: the package was not built. */
  | 'NOT_BUILT'
  /** The questions were left with Ctrl+D or Ctrl+C; nothing is written. */
  | 'CANCELLED';

const BRAND = Symbol.for('create-statemcp.error');

/** A problem the user can fix: a bad flag or name, a non-empty directory, a failed install. */
export class CreateStatemcpError extends Error {
  override readonly name = 'CreateStatemcpError';
  readonly code: CreateStatemcpErrorCode;

  constructor(code: CreateStatemcpErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a `CreateStatemcpError`, even one from another copy of this package. */
  static is(value: unknown): value is CreateStatemcpError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
