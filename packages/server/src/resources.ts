/**
 * Resource registrations of an `McpServer`: static resources (one URI each) and URI-template
 * resources (RFC 6570 levels 1–4, matched as `uri-template-match.ts` describes, with
 * per-variable completers and an optional `list` callback that contributes concrete
 * resources to `resources/list`). Both can be updated (and renamed) in place. `resources/read`
 * tries the exact URI first, then the templates in registration order; an unknown URI is
 * -32002 with `data.uri` (MCP 2026-07-28 basic/index §Error Codes, MCP 2025-11-25 server/resources
 * §Error Handling), -32602 with `data.uri` from 2026-07-28 on.
 * Results of 2026-07-28+ carry caching hints: the registration's `cache`, else the server's.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '@statemcp/protocol';
import { getRevision } from '@statemcp/protocol/internal';
import { resolveCacheHints, type CacheHints } from './caching.js';
import { completerFor, type Completer } from './completions.js';
import { paginate } from './pagination.js';
import { Registry, registrationHandle, type RegistrationHandle } from './registry.js';
import type { RequestExtra } from './request-extra.js';
import { checkResult } from './result-check.js';
import { resourceFor, resourceTemplateFor } from './revision-features.js';
import { UriTemplate } from './uri-template.js';
import type { UriTemplateMatch, UriTemplateVariables } from './uri-template-match.js';
import { visibilityRule, type LazyViewer, type Visibility, type VisibilityRule } from './visibility.js';
import type { Annotations, Icon, Meta, ReadResourceResult, Resource, ResourceTemplate } from './wire-types.js';

/**
 * Descriptive fields of a resource (everything but `uri` and `name`), and who sees it
 * (`requiredScopes`, `visible`: hidden from the lists and not found for anyone else).
 */
export interface ResourceMetadata extends Visibility {
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

/** Reads a static resource: its contents for `uri`. */
export type ReadResourceCallback = (uri: string, extra: RequestExtra) => ReadResourceResult | Promise<ReadResourceResult>;
/** Reads a resource of a template; `variables` are what the URI matched (typed from the template text at registration). */
export type ReadResourceTemplateCallback<V = UriTemplateMatch> = (uri: string, variables: V, extra: RequestExtra) => ReadResourceResult | Promise<ReadResourceResult>;

/** What `RegisteredResource.update` takes: new metadata, and a new `name` or `uri` to rename the resource. */
export type ResourceUpdate = ResourceMetadata & {
  readonly name?: string;
  readonly uri?: string;
};

/** What `RegisteredResourceTemplate.update` takes: new metadata, and a new `name` or `uriTemplate`. */
export type ResourceTemplateUpdate<T extends string = string> = ResourceTemplateMetadata & {
  readonly name?: string;
  readonly uriTemplate?: T;
};

/** The handle `registerResource` returns. */
export interface RegisteredResource extends RegistrationHandle {
  /**
   * Replaces the metadata and, when given, the read callback; `name` and `uri` rename the
   * resource (it keeps its place in `resources/list`). A URI already registered throws and
   * leaves the resource as it was.
   */
  update(update: ResourceUpdate, read?: ReadResourceCallback): void;
}

/** The handle `registerResourceTemplate` returns. */
export interface RegisteredResourceTemplate extends RegistrationHandle {
  /**
   * Replaces the metadata (`list`, `complete` included) and, when given, the read callback;
   * `name` and `uriTemplate` rename the template. A template that cannot be matched, or a
   * name already registered, throws and leaves the template as it was.
   */
  update<T extends string = string>(update: ResourceTemplateUpdate<T>, read?: ReadResourceTemplateCallback<UriTemplateVariables<T>>): void;
}

type StaticEntry = {
  readonly kind: 'static';
  key: string;
  enabled: boolean;
  visibility: VisibilityRule | undefined;
  wire: Resource;
  cache: CacheHints | undefined;
  read: ReadResourceCallback;
};
type TemplateEntry = {
  readonly kind: 'template';
  key: string;
  enabled: boolean;
  visibility: VisibilityRule | undefined;
  wire: ResourceTemplate;
  template: UriTemplate;
  metadata: ResourceTemplateMetadata;
  read: ReadResourceTemplateCallback;
};
type ResourceEntry = StaticEntry | TemplateEntry;

function describe(metadata: ResourceMetadata): Partial<Resource> {
  const out: Partial<Resource> = {};
  for (const key of ['title', 'description', 'mimeType', 'annotations', 'size', 'icons', '_meta'] as const) {
    if (metadata[key] !== undefined) (out as Record<string, unknown>)[key] = metadata[key];
  }
  return out;
}

function describeTemplate(name: string, uriTemplate: string, metadata: ResourceTemplateMetadata): Pick<TemplateEntry, 'wire' | 'metadata' | 'visibility'> {
  const { size: _size, ...described } = describe(metadata);
  return { wire: { uriTemplate, name, ...described }, metadata, visibility: visibilityRule(metadata) };
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
    const entry: StaticEntry = { kind: 'static', key, enabled: true, visibility: visibilityRule(metadata), wire: { uri, name, ...describe(metadata) }, cache: metadata.cache, read };
    this.entries.set(key, entry);
    const handle = registrationHandle(this.entries, entry, () => ({ name: entry.wire.name, key: entry.key }));
    return Object.assign(handle, {
      update: ({ name: newName = entry.wire.name, uri: newUri = entry.wire.uri, ...next }: ResourceUpdate, nextRead?: ReadResourceCallback) => {
        const newKey = `uri:${newUri}`;
        if (newKey !== entry.key && this.entries.has(newKey)) throw new Error(`Resource ${newUri} is already registered`);
        const before = entry.visibility;
        this.entries.rekey(entry.key, newKey);
        entry.key = newKey;
        entry.wire = { uri: newUri, name: newName, ...describe(next) };
        entry.cache = next.cache;
        entry.visibility = visibilityRule(next);
        if (nextRead !== undefined) entry.read = nextRead;
        this.entries.touchUpdated(entry, before);
      },
    });
  }

  registerTemplate(name: string, uriTemplate: string, metadata: ResourceTemplateMetadata, read: ReadResourceTemplateCallback): RegisteredResourceTemplate {
    const key = `template:${name}`;
    if (this.entries.has(key)) throw new Error(`Resource template ${name} is already registered`);
    const entry: TemplateEntry = { kind: 'template', key, enabled: true, template: UriTemplate.forMatching(uriTemplate), ...describeTemplate(name, uriTemplate, metadata), read };
    this.entries.set(key, entry);
    const handle = registrationHandle(this.entries, entry, () => ({ name: entry.wire.name, key: entry.key }));
    const update = (changes: ResourceTemplateUpdate, nextRead?: ReadResourceTemplateCallback): void => {
      const { name: newName = entry.wire.name, uriTemplate: newText = entry.wire.uriTemplate, ...next } = changes;
      const newKey = `template:${newName}`;
      if (newKey !== entry.key && this.entries.has(newKey)) throw new Error(`Resource template ${newName} is already registered`);
      const template = newText === entry.wire.uriTemplate ? entry.template : UriTemplate.forMatching(newText);
      const before = entry.visibility;
      this.entries.rekey(entry.key, newKey);
      Object.assign(entry, { key: newKey, template }, describeTemplate(newName, newText, next));
      if (nextRead !== undefined) entry.read = nextRead;
      this.entries.touchUpdated(entry, before);
    };
    return Object.assign(handle, { update: update as RegisteredResourceTemplate['update'] });
  }

  /** `resources/list` as `viewer` sees it: static resources, then what each template's `list` callback returns. */
  async list(params: JsonObject, version: string, pageSize: number, extra: RequestExtra, viewer: LazyViewer): Promise<JsonObject> {
    const all: Resource[] = [];
    for (const entry of this.entries.values()) {
      if (!viewer.shows(entry)) continue;
      if (entry.kind === 'static') all.push(entry.wire);
      else if (entry.metadata.list !== undefined) all.push(...(await entry.metadata.list(extra)));
    }
    const page = paginate(all, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const resources = page.items.map((resource) => resourceFor(resource, version));
    return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
  }

  /** `resources/templates/list`, as `viewer` sees it. */
  listTemplates(params: JsonObject, version: string, pageSize: number, viewer: LazyViewer): JsonObject {
    const templates = this.entries.values().filter((entry): entry is TemplateEntry => entry.kind === 'template' && viewer.shows(entry));
    const page = paginate(templates, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const resourceTemplates = page.items.map((entry) => resourceTemplateFor(entry.wire, version));
    return page.nextCursor === undefined ? { resourceTemplates } : { resourceTemplates, nextCursor: page.nextCursor };
  }

  /**
   * `resources/read`; the revision's resource-not-found error (with `data.uri`) when nothing
   * `viewer` sees serves `uri`.
   */
  async read(uri: string, version: string, extra: RequestExtra, serverCache: CacheHints | undefined, viewer: LazyViewer): Promise<JsonObject> {
    const exact = this.entries.get(`uri:${uri}`);
    if (exact !== undefined && exact.kind === 'static' && viewer.shows(exact)) {
      viewer.challenge(exact, 'Resource', uri);
      return checkResult('resources/read', await exact.read(uri, extra), version, `Resource ${uri}`, resolveCacheHints(exact.cache, serverCache));
    }
    for (const entry of this.entries.values()) {
      if (entry.kind !== 'template' || !viewer.shows(entry)) continue;
      const variables = entry.template.match(uri);
      if (variables === undefined) continue;
      viewer.challenge(entry, 'Resource template', entry.wire.name);
      const hints = resolveCacheHints(entry.metadata.cache, serverCache);
      return checkResult('resources/read', await entry.read(uri, variables, extra), version, `Resource template ${entry.wire.name}`, hints);
    }
    const code = getRevision(version)?.features.resourceNotFoundCode ?? ErrorCode.ResourceNotFound;
    throw new JsonRpcError(code, `Resource not found: ${uri}`, { uri });
  }

  /** The completer of `variable` in the template whose text is `uriTemplate`; `null` when `viewer` sees no such template. */
  completer(uriTemplate: string, variable: string, viewer: LazyViewer): Completer | undefined | null {
    let known = false;
    for (const entry of this.entries.values()) {
      if (!viewer.shows(entry)) continue;
      if (entry.kind === 'static' && entry.wire.uri === uriTemplate) known = true;
      if (entry.kind === 'template' && entry.wire.uriTemplate === uriTemplate) return completerFor(entry.metadata.complete, variable);
    }
    return known ? undefined : null;
  }
}
