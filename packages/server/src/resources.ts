/**
 * Resource registrations of an `McpServer`: static resources (one URI each) and URI-template
 * resources (RFC 6570 level 1, with per-variable completers and an optional `list`
 * callback that contributes concrete resources to `resources/list`). `resources/read`
 * tries the exact URI first, then the templates in registration order; an unknown URI is
 * -32002 with `data.uri` (digest §3.1, rule 53), -32602 with `data.uri` from 2026-07-28 on.
 * Results of 2026-07-28+ carry caching hints: the registration's `cache`, else the server's.
 */
import { ErrorCode, JsonRpcError, getRevision, type JsonObject } from '@statemcp/protocol';
import { resolveCacheHints, type CacheHints } from './caching.js';
import type { Completer } from './completions.js';
import { paginate } from './pagination.js';
import { Registry, registrationHandle, type RegistrationHandle } from './registry.js';
import type { RequestExtra } from './request-extra.js';
import { checkResult } from './result-check.js';
import { resourceFor, resourceTemplateFor } from './revision-features.js';
import { UriTemplate } from './uri-template.js';
import type { Annotations, Icon, Meta, ReadResourceResult, Resource, ResourceTemplate } from './wire-types.js';

/** Descriptive fields of a resource (everything but `uri` and `name`). */
export interface ResourceMetadata {
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: Annotations;
  /** Size in bytes, when known. */
  readonly size?: number;
  /** Icons (2025-11-25+). */
  readonly icons?: Icon[];
  readonly _meta?: Meta;
  /** Caching hints of this resource's `resources/read` results (2026-07-28+); default: the server's. */
  readonly cache?: CacheHints;
}

/** Descriptive fields and behaviour of a resource template. */
export interface ResourceTemplateMetadata extends Omit<ResourceMetadata, 'size'> {
  /** Concrete resources of this template to include in `resources/list`. */
  readonly list?: (extra: RequestExtra) => Resource[] | Promise<Resource[]>;
  /** Completers for the template's variables (`completion/complete` with `ref/resource`). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

export type ReadResourceCallback = (uri: string, extra: RequestExtra) => ReadResourceResult | Promise<ReadResourceResult>;
export type ReadResourceTemplateCallback = (uri: string, variables: Record<string, string>, extra: RequestExtra) => ReadResourceResult | Promise<ReadResourceResult>;

/** The handle `registerResource` / `registerResourceTemplate` return. */
/** The handle `registerResource` and `registerResourceTemplate` return. */
export type RegisteredResource = RegistrationHandle;

type ResourceEntry =
  | { readonly kind: 'static'; readonly key: string; enabled: boolean; readonly wire: Resource; readonly cache: CacheHints | undefined; readonly read: ReadResourceCallback }
  | {
      readonly kind: 'template';
      readonly key: string;
      enabled: boolean;
      readonly wire: ResourceTemplate;
      readonly template: UriTemplate;
      readonly metadata: ResourceTemplateMetadata;
      readonly read: ReadResourceTemplateCallback;
    };

function describe(metadata: ResourceMetadata): Partial<Resource> {
  const out: Partial<Resource> = {};
  for (const key of ['title', 'description', 'mimeType', 'annotations', 'size', 'icons', '_meta'] as const) {
    if (metadata[key] !== undefined) (out as Record<string, unknown>)[key] = metadata[key];
  }
  return out;
}

/** The resources and resource templates of one `McpServer`. */
export class ResourceRegistry {
  readonly entries: Registry<ResourceEntry>;

  constructor(onChange: () => void) {
    this.entries = new Registry(onChange);
  }

  get hasTemplates(): boolean {
    return this.entries.values().some((entry) => entry.kind === 'template');
  }

  /** True when a template has a completer. */
  get hasCompleters(): boolean {
    return this.entries.values().some((entry) => entry.kind === 'template' && Object.keys(entry.metadata.complete ?? {}).length > 0);
  }

  registerStatic(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): RegisteredResource {
    const key = `uri:${uri}`;
    if (this.entries.has(key)) throw new Error(`Resource ${uri} is already registered`);
    const entry: ResourceEntry = { kind: 'static', key, enabled: true, wire: { uri, name, ...describe(metadata) }, cache: metadata.cache, read };
    this.entries.set(key, entry);
    return this.#handle(name, entry);
  }

  registerTemplate(name: string, uriTemplate: string, metadata: ResourceTemplateMetadata, read: ReadResourceTemplateCallback): RegisteredResource {
    const key = `template:${name}`;
    if (this.entries.has(key)) throw new Error(`Resource template ${name} is already registered`);
    const template = new UriTemplate(uriTemplate);
    const { size: _size, ...described } = describe(metadata);
    const entry: ResourceEntry = { kind: 'template', key, enabled: true, wire: { uriTemplate, name, ...described }, template, metadata, read };
    this.entries.set(key, entry);
    return this.#handle(name, entry);
  }

  #handle(name: string, entry: ResourceEntry): RegisteredResource {
    return registrationHandle(this.entries, name, entry.key, entry);
  }

  /** `resources/list`: static resources, then what each template's `list` callback returns. */
  async list(params: JsonObject, version: string, pageSize: number, extra: RequestExtra): Promise<JsonObject> {
    const all: Resource[] = [];
    for (const entry of this.entries.values()) {
      if (!entry.enabled) continue;
      if (entry.kind === 'static') all.push(entry.wire);
      else if (entry.metadata.list !== undefined) all.push(...(await entry.metadata.list(extra)));
    }
    const page = paginate(all, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const resources = page.items.map((resource) => resourceFor(resource, version));
    return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
  }

  /** `resources/templates/list`. */
  listTemplates(params: JsonObject, version: string, pageSize: number): JsonObject {
    const templates = this.entries.values().filter((entry) => entry.enabled && entry.kind === 'template');
    const page = paginate(templates, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const resourceTemplates = page.items.map((entry) => resourceTemplateFor(entry.wire as ResourceTemplate, version));
    return page.nextCursor === undefined ? { resourceTemplates } : { resourceTemplates, nextCursor: page.nextCursor };
  }

  /** `resources/read`; the revision's resource-not-found error (with `data.uri`) when nothing serves `uri`. */
  async read(uri: string, version: string, extra: RequestExtra, serverCache: CacheHints | undefined): Promise<JsonObject> {
    const exact = this.entries.get(`uri:${uri}`);
    if (exact !== undefined && exact.kind === 'static' && exact.enabled) {
      return checkResult('resources/read', await exact.read(uri, extra), version, `Resource ${uri}`, resolveCacheHints(exact.cache, serverCache));
    }
    for (const entry of this.entries.values()) {
      if (entry.kind !== 'template' || !entry.enabled) continue;
      const variables = entry.template.match(uri);
      if (variables === undefined) continue;
      const hints = resolveCacheHints(entry.metadata.cache, serverCache);
      return checkResult('resources/read', await entry.read(uri, variables, extra), version, `Resource template ${entry.wire.name}`, hints);
    }
    const code = getRevision(version)?.features.resourceNotFoundCode ?? ErrorCode.ResourceNotFound;
    throw new JsonRpcError(code, `Resource not found: ${uri}`, { uri });
  }

  /** The completer of `variable` in the template whose text is `uriTemplate`; `null` when the template is unknown. */
  completer(uriTemplate: string, variable: string): Completer | undefined | null {
    let known = false;
    for (const entry of this.entries.values()) {
      if (!entry.enabled) continue;
      if (entry.kind === 'static' && entry.wire.uri === uriTemplate) known = true;
      if (entry.kind === 'template' && entry.wire.uriTemplate === uriTemplate) return entry.metadata.complete?.[variable];
    }
    return known ? undefined : null;
  }
}
