/**
 * @statemcp/typegen — TypeScript types for any MCP server, written from its listings, for the
 * typed client of `@statemcp/client`. The `statemcp-typegen` command connects (stdio or
 * Streamable HTTP) and writes the module; the functions below do each step.
 */
export { main, parseTypegenArgs, readListing, runTypegen, TYPEGEN_USAGE } from './cli.js';
export type { TypegenCommandLine, TypegenOutcome, TypegenTarget } from './cli.js';
export { generateModule } from './generate-module.js';
export type { GenerateOptions, GeneratedModule, ListedTool, ServerListing } from './generate-module.js';
export { schemaToTypeScript, TypeDeclarations } from './json-schema-to-ts.js';
export { describeChanges, diffManifests, fingerprint, MANIFEST_MARKER, readManifest } from './manifest.js';
export type { DefinitionChange, Manifest } from './manifest.js';
