/**
 * A TypeScript module of a server's definitions, from its listings: one type per tool input
 * and output schema (with their `$defs`), prompt arguments, and resource URI templates, gathered
 * in an `McpDefinitions`-shaped interface that `typedClient` from `@statemcp/client` accepts.
 * The module ends with a manifest (a fingerprint per definition) so that generating it again
 * can say what changed.
 */
import type { Prompt, Resource, ResourceTemplate } from '@statemcp/client';
import { docComment, propertyKey, schemaToTypeScript, TypeDeclarations } from './json-schema-to-ts.js';
import { fingerprint, MANIFEST_MARKER, type Manifest } from './manifest.js';

/** A listed tool as the generator reads it (a `Tool` from `tools/list` is one): its schemas may be any JSON Schema. */
export interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: object;
  readonly outputSchema?: object;
}

/** What a server lists: the input of {@link generateModule}. */
export interface ServerListing {
  readonly server?: { readonly name: string; readonly version: string };
  readonly tools: readonly ListedTool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
}

/** Options of {@link generateModule}. */
export interface GenerateOptions {
  /** The name of the definitions interface (default `ServerDefinitions`). */
  readonly typeName?: string;
  /** How the listing was obtained, for the header (e.g. the command line). */
  readonly source?: string;
}

/** A generated module: its text and the manifest written at its end. */
export interface GeneratedModule {
  readonly code: string;
  readonly manifest: Manifest;
}

function indentBlock(text: string, indent: string): string {
  return text.replaceAll('\n', `\n${indent}`);
}

/** The type of one prompt's arguments: every argument is a string (the wire's type), required or not. */
function promptArgs(prompt: Prompt): string {
  const args = prompt.arguments ?? [];
  if (args.length === 0) return 'Record<string, never>';
  const members = args.map((arg) => `${docComment(arg, '      ')}      ${propertyKey(arg.name)}${arg.required === true ? '' : '?'}: string;`);
  return `{\n${members.join('\n')}\n    }`;
}

/** The module for `listing`. */
export function generateModule(listing: ServerListing, options: GenerateOptions = {}): GeneratedModule {
  const typeName = options.typeName ?? 'ServerDefinitions';
  const declarations = new TypeDeclarations();
  declarations.reserve(typeName);
  const manifest: Manifest = { tools: {}, prompts: {}, resources: {} };

  const tools = listing.tools.map((tool) => {
    const args = schemaToTypeScript(tool.inputSchema, `${tool.name} args`, declarations);
    const structured = tool.outputSchema === undefined ? 'undefined' : schemaToTypeScript(tool.outputSchema, `${tool.name} result`, declarations);
    manifest.tools[tool.name] = { input: fingerprint(tool.inputSchema), output: tool.outputSchema === undefined ? null : fingerprint(tool.outputSchema) };
    return `${docComment(tool, '    ')}    ${propertyKey(tool.name)}: { args: ${args}; structured: ${structured} };`;
  });
  const prompts = listing.prompts.map((prompt) => {
    manifest.prompts[prompt.name] = fingerprint(prompt.arguments ?? []);
    return `${docComment(prompt, '    ')}    ${propertyKey(prompt.name)}: { args: ${promptArgs(prompt)} };`;
  });
  const resources = [
    ...listing.resources.map((resource) => ({ name: resource.name, template: resource.uri, fixed: true, doc: docComment(resource, '    ') })),
    ...listing.resourceTemplates.map((template) => ({ name: template.name, template: template.uriTemplate, fixed: false, doc: docComment(template, '    ') })),
  ].map(({ name, template, fixed, doc }) => {
    manifest.resources[name] = fingerprint(template);
    const text = JSON.stringify(template);
    return `${doc}    ${propertyKey(name)}: { uriTemplate: ${text}; variables: ${fixed ? 'Record<string, never>' : `UriTemplateVariables<${text}>`} };`;
  });

  const section = (name: string, lines: readonly string[]) => (lines.length === 0 ? `  ${name}: {};` : `  ${name}: {\n${lines.join('\n')}\n  };`);
  const from = listing.server === undefined ? 'an MCP server' : `${listing.server.name} ${listing.server.version}`;
  const header = [
    `// Types of ${from}, written by statemcp-typegen${options.source === undefined ? '' : ` from \`${options.source}\``}.`,
    '// Do not edit: run the command again to update it (it reports what changed).',
    "import type { UriTemplateVariables } from '@statemcp/client';",
    '',
  ].join('\n');
  const definitions = [
    `/** The tools, prompts and resources of ${from}: give it to \`typedClient<${typeName}>(client)\`. */`,
    `export interface ${typeName} {`,
    section('tools', tools),
    section('prompts', prompts),
    section('resources', resources),
    '}',
    '',
  ].join('\n');
  const code = `${header}\n${definitions}\n${indentBlock(declarations.code, '')}\n${MANIFEST_MARKER} ${JSON.stringify(manifest)}\n`;
  return { code, manifest };
}
