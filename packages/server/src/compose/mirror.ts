/**
 * The registrations a mount keeps on the composed `McpServer`: one per tool, prompt, resource
 * and resource template of its upstream, named by the mount's {@link Namespace}, each
 * forwarding to the upstream. `sync` lists the upstream again and applies the difference
 * (added, changed, removed), so the server's own list-changed notifications tell downstream
 * clients; `clear` removes everything (the upstream went away). The lists downstream clients
 * see are the server's own: every mount and local registration merged, paginated with the
 * server's cursors (`McpServerOptions.pageSize`).
 */
import { LOG_LEVEL_META_KEY, SERVER_INFO_META_KEY } from '@statemcp/protocol';
import { hasFeature } from '@statemcp/protocol/internal';
import { isLoggingLevel } from '@statemcp/server/internal';
import type { Client } from '@statemcp/client';
import type { CallOptions } from '@statemcp/client';
import type { McpServer } from '../mcp-server.js';
import type { RequestExtra } from '../request-extra.js';
import type { RegistrationHandle } from '../registry.js';
import type { ToolConfig } from '../tools.js';
import type { CallToolResult, GetPromptResult, JsonSchemaObject, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from '../wire-types.js';
import type { Completer } from '../completions.js';
import { templateVariables, type Namespace } from './namespace.js';
import { forwardTaskable } from './upstream-task.js';

/** The lists a mount mirrors, by the name of their list-changed notification. */
export type MirroredList = 'tools' | 'prompts' | 'resources';

/** Sends one request to the upstream on behalf of the downstream request of `extra`. */
export type Forward = <T>(extra: RequestExtra, send: (client: Client, options: CallOptions) => Promise<T>) => Promise<T>;

/** One upstream item registered downstream, with the definition it was registered from. */
interface Mirrored {
  readonly definition: string;
  readonly handle: RegistrationHandle;
}

type Section = 'tools' | 'prompts' | 'resources' | 'templates';

export class Mirror {
  readonly #server: McpServer;
  readonly #space: Namespace;
  readonly #forward: Forward;
  readonly #report: (message: string) => void;
  readonly #sections: Record<Section, Map<string, Mirrored>> = { tools: new Map(), prompts: new Map(), resources: new Map(), templates: new Map() };

  constructor(server: McpServer, space: Namespace, forward: Forward, report: (message: string) => void) {
    this.#server = server;
    this.#space = space;
    this.#forward = forward;
    this.#report = report;
  }

  /**
   * Lists `kinds` of the upstream `client` (every page) and brings the registrations up to date;
   * resolves with whether any registration changed.
   */
  async sync(client: Client, kinds: ReadonlySet<MirroredList>): Promise<boolean> {
    const capabilities = client.serverCapabilities ?? {};
    const completes = capabilities.completions !== undefined;
    let changed = false;
    if (kinds.has('tools')) {
      // A legacy upstream's task-augmented calls are not made (the gateway's client speaks the tasks extension only): its tools are mounted without `execution`.
      const tools = capabilities.tools === undefined ? [] : await client.listAllTools();
      const mounted = client.era === 'modern' ? tools : tools.map(({ execution: _execution, ...tool }) => tool);
      changed = this.#apply('tools', mounted, (tool) => tool.name, (tool) => this.#registerTool(tool)) || changed;
    }
    if (kinds.has('prompts')) {
      changed = this.#apply('prompts', capabilities.prompts === undefined ? [] : await client.listAllPrompts(), (prompt) => prompt.name, (prompt) => this.#registerPrompt(prompt, completes)) || changed;
    }
    if (kinds.has('resources')) {
      const listed = capabilities.resources !== undefined;
      const [resources, templates] = listed ? await Promise.all([client.listAllResources(), client.listAllResourceTemplates()]) : [[], []];
      changed = this.#apply('resources', resources, (resource) => resource.uri, (resource) => this.#registerResource(resource)) || changed;
      changed = this.#apply('templates', templates, (template) => template.name, (template) => this.#registerTemplate(template, completes)) || changed;
    }
    return changed;
  }

  /** Removes every registration (the upstream is gone; `sync` brings them back). */
  clear(): void {
    for (const section of Object.values(this.#sections)) {
      for (const { handle } of section.values()) handle.remove();
      section.clear();
    }
  }

  /** Applies the difference between `items` and the registrations of `section`; true when anything changed. */
  #apply<T>(section: Section, items: readonly T[], key: (item: T) => string, register: (item: T) => RegistrationHandle | undefined): boolean {
    const current = this.#sections[section];
    const seen = new Set<string>();
    let changed = false;
    for (const item of items) {
      const id = key(item);
      if (seen.has(id)) continue; // an upstream listing the same item twice
      seen.add(id);
      const definition = JSON.stringify(item);
      const existing = current.get(id);
      if (existing?.definition === definition) continue;
      changed = true;
      existing?.handle.remove();
      current.delete(id);
      const handle = this.#register(section, id, () => register(item));
      if (handle !== undefined) current.set(id, { definition, handle });
    }
    for (const [id, { handle }] of current) {
      if (seen.has(id)) continue;
      changed = true;
      handle.remove();
      current.delete(id);
    }
    return changed;
  }

  /** Registers one item; one the server refuses (a name too long, a template it cannot match, a name taken locally) is reported and skipped. */
  #register(section: Section, id: string, register: () => RegistrationHandle | undefined): RegistrationHandle | undefined {
    try {
      return register();
    } catch (error) {
      this.#report(`${this.#space.prefix}: ${section} ${JSON.stringify(id)} not mounted: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  #name(upstream: string): string {
    const name = this.#space.name(upstream);
    if (name === undefined) throw new TypeError('the prefixed name breaks the tool-name rules (1–128 of A-Z a-z 0-9 _ - .)');
    return name;
  }

  #registerTool(tool: Tool): RegistrationHandle {
    const name = this.#name(tool.name);
    // A tool that may run as a task becomes one when the upstream runs it as one (see upstream-task.ts).
    const taskable = (tool.execution?.taskSupport ?? 'forbidden') !== 'forbidden';
    const config: ToolConfig<JsonSchemaObject, JsonSchemaObject | undefined> = definedFields({
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
      icons: tool.icons,
      execution: tool.execution,
      deferTask: taskable ? true : undefined,
      _meta: tool._meta,
    });
    const call = (args: unknown, extra: RequestExtra): Promise<CallToolResult> =>
      this.#forward(extra, (client, options) =>
        forwardTaskable(extra, async ({ signal, onTask }) =>
          this.#received(await client.callTool({ name: tool.name, arguments: args as Record<string, unknown>, ...callerMeta(extra) }, { ...options, signal, onTask, validateOutput: false })),
        ),
      );
    return this.#server.registerTool(name, config as ToolConfig<JsonSchemaObject>, call as never);
  }

  #registerPrompt(prompt: Prompt, completes: boolean): RegistrationHandle {
    const name = this.#name(prompt.name);
    const argumentsList = prompt.arguments ?? [];
    const complete = completes ? this.#completers(argumentsList.map((argument) => argument.name), { type: 'ref/prompt', name: prompt.name }) : undefined;
    const get = (args: { [key: string]: string | undefined }, extra: RequestExtra): Promise<GetPromptResult> =>
      this.#forward(extra, async (client, options) => this.#received(await client.getPrompt({ name: prompt.name, arguments: definedStrings(args), ...callerMeta(extra) }, options)));
    return this.#server.registerPrompt(name, definedFields({ title: prompt.title, description: prompt.description, argsSchema: argumentsList, complete, icons: prompt.icons, _meta: prompt._meta }), get);
  }

  #registerResource(resource: Resource): RegistrationHandle {
    const metadata = definedFields({
      title: resource.title,
      description: resource.description,
      mimeType: resource.mimeType,
      annotations: resource.annotations,
      size: resource.size,
      icons: resource.icons,
      _meta: resource._meta,
    });
    return this.#server.registerResource(this.#name(resource.name), this.#space.uri(resource.uri), metadata, (uri, extra) => this.#read(uri, extra));
  }

  #registerTemplate(template: ResourceTemplate, completes: boolean): RegistrationHandle {
    const complete = completes ? this.#completers(templateVariables(template.uriTemplate), { type: 'ref/resource', uri: template.uriTemplate }) : undefined;
    const metadata = definedFields({
      title: template.title,
      description: template.description,
      mimeType: template.mimeType,
      annotations: template.annotations,
      icons: template.icons,
      _meta: template._meta,
      complete,
    });
    return this.#server.registerResourceTemplate(this.#name(template.name), this.#space.uri(template.uriTemplate), metadata, (uri, _variables, extra) => this.#read(uri, extra));
  }

  #read(uri: string, extra: RequestExtra): Promise<ReadResourceResult> {
    const upstream = this.#space.upstreamUri(uri) ?? uri;
    return this.#forward(extra, async (client, options) => this.#received(await client.readResource({ uri: upstream, ...callerMeta(extra) }, options)));
  }

  /**
   * An upstream result as the gateway answers it: URIs rewritten, and the 2026-07-28 envelope of
   * the upstream (`resultType`, its `serverInfo` in `_meta`) left behind — the gateway's own
   * server adds its envelope for the downstream request's revision.
   */
  #received<T extends { resultType?: unknown; _meta?: { [key: string]: unknown } }>(result: T): T {
    const { resultType: _type, ...rest } = result;
    const meta = rest._meta;
    if (meta !== undefined && SERVER_INFO_META_KEY in meta) {
      const { [SERVER_INFO_META_KEY]: _server, ...others } = meta;
      if (Object.keys(others).length === 0) delete rest._meta;
      else rest._meta = others;
    }
    return this.#space.rewriteUris(rest as T);
  }

  /** A completer per name that asks the upstream (`completion/complete` with the upstream's reference). */
  #completers(names: readonly string[], ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }): Record<string, Completer> {
    const entries = names.map((argument): [string, Completer] => [
      argument,
      (value, { arguments: resolved, extra }) =>
        this.#forward(extra, async (client, options) => {
          const context = Object.keys(resolved).length > 0 ? { context: { arguments: { ...resolved } } } : {};
          const { completion } = await client.complete({ ref, argument: { name: argument, value }, ...context }, options);
          return definedFields({ values: completion.values, total: completion.total, hasMore: completion.hasMore });
        }),
    ]);
    return Object.fromEntries(entries);
  }
}

/**
 * The `_meta` an upstream request carries for its caller: the log level the caller wants, so a
 * 2026-07-28 upstream logs during the call (MCP 2026-07-28, Logging: the level travels in each
 * request's `_meta`). A 2026-07-28 caller names it per request; a legacy one set it with
 * `logging/setLevel`, and without one gets every message (MCP 2025-11-25, Logging).
 */
function callerMeta(extra: RequestExtra): { _meta?: { [key: string]: unknown } } {
  const level = hasFeature(extra.protocolVersion, 'perRequestMeta') ? extra.meta?.[LOG_LEVEL_META_KEY] : (extra.connection.logLevel ?? 'debug');
  return isLoggingLevel(level) ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {};
}

/** `value` without its `undefined` members (the server's configs are exact optional types). */
function definedFields<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

function definedStrings(args: { readonly [key: string]: string | undefined }): Record<string, string> {
  return definedFields(args);
}
