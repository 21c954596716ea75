/**
 * create-statemcp: `npm create statemcp@latest` writes a new MCP server project. The command is the
 * package's bin; the functions below are what it is made of, for tools that generate projects too.
 */
export { main } from './cli.js';
export type { CliEnvironment } from './cli.js';
export { createProject, projectFiles } from './create-project.js';
export type { CreateProjectInput } from './create-project.js';
export { CreateStatemcpError } from './errors.js';
export type { CreateStatemcpErrorCode } from './errors.js';
export { DEFAULTS, detectPackageManager, directoryFor, ERAS, nameProblem, PACKAGE_MANAGERS, parseFlags, TRANSPORTS, USAGE, validateProjectName } from './options.js';
export type { Era, PackageManager, ParsedFlags, ProjectOptions, Transport } from './options.js';
export type { DependencyVersions } from './template/project-files.js';
export { packagedVersions } from './versions.js';
