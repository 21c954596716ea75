/**
 * MCP Apps on an `McpServer` (`io.modelcontextprotocol/ui`, SEP-1865): a tool linked to its
 * `ui://` view, and the view served as `text/html;profile=mcp-app` with its CSP, permissions
 * and border preference in `_meta.ui`, both on its `resources/list` entry and on its
 * `resources/read` contents. Registering either declares the extension with its MIME type.
 *
 * Fallback: an app tool is an ordinary tool — every client lists and calls it, and its
 * result must carry text `content` for hosts that render no view; `clientSupportsApps(extra)`
 * tells a handler whether this client declared the extension, so it can shape that text.
 */
import { APP_MIME_TYPE, CLIENT_CAPABILITIES_META_KEY, UI_EXTENSION_ID, extensionSettings, type JsonObject } from '@statemcp/protocol';
import { LEGACY_RESOURCE_URI_META_KEY } from '@statemcp/protocol/internal';
import type { UiExtensionSettings, UiResourceCsp, UiResourceMeta, UiResourcePermissions, UiToolMeta, UiVisibility } from '@statemcp/protocol';
import type { McpServer } from '../mcp-server.js';
import type { InferObject, ObjectSchemaInput } from '../object-schema.js';
import type { ToolResultOf } from '../tool-results.js';
import type { RequestExtra } from '../request-extra.js';
import type { RegisteredResource, ResourceMetadata } from '../resources.js';
import type { RegisteredTool, ToolArgs, ToolCallback, ToolConfig } from '../tools.js';
import type { ReadResourceResult } from '../wire-types.js';

/** A tool's link to its view. */
export interface AppToolUi {
  /** The view: a `ui://` resource registered with {@link registerAppView}. */
  readonly resourceUri: string;
  /** Who may call the tool: `['model', 'app']` (default), `['model']`, or `['app']` (only the view). */
  readonly visibility?: readonly UiVisibility[];
}

/** `registerAppTool`'s config: a tool's config plus its `ui`. */
export interface AppToolConfig<I extends ObjectSchemaInput | undefined = undefined, O extends ObjectSchemaInput | undefined = undefined> extends ToolConfig<I, O> {
  readonly ui: AppToolUi;
}

/** `registerAppView`'s config: the page and what it needs from the host. */
export interface AppViewConfig extends Omit<ResourceMetadata, 'mimeType'> {
  /** The single-file HTML document, or a function producing it per read. */
  readonly html: string | ((extra: RequestExtra) => string | Promise<string>);
  /** Origins the page may reach; absent means none (the host's restrictive default CSP). */
  readonly csp?: UiResourceCsp;
  /** Browser permissions the page asks for. */
  readonly permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin (host-specific format). */
  readonly domain?: string;
  /** Whether the host should draw a border and background around the view. */
  readonly prefersBorder?: boolean;
}

const UI_SCHEME = 'ui://';
const VISIBILITIES: ReadonlySet<string> = new Set<UiVisibility>(['model', 'app']);

function declareApps(server: McpServer): void {
  const settings: UiExtensionSettings = { mimeTypes: [APP_MIME_TYPE] };
  server.declareExtension(UI_EXTENSION_ID, settings as JsonObject);
}

function checkViewUri(uri: string, what: string): void {
  if (!uri.startsWith(UI_SCHEME) || uri.length === UI_SCHEME.length) throw new TypeError(`${what}: a view URI must use the ui:// scheme (got ${JSON.stringify(uri)})`);
}

/**
 * Registers a tool whose results a host renders with the view at `config.ui.resourceUri`:
 * the tool's `_meta.ui` carries `resourceUri` and `visibility` (plus the deprecated flat
 * `ui/resourceUri` key older hosts read), and the server declares the extension. The handler
 * should return text `content` (what hosts without MCP Apps show, and what the model reads)
 * and may add `structuredContent` for the view.
 *
 * @example
 * ```ts
 * registerAppTool(server, 'roll', { inputSchema: { sides: z.number() }, ui: { resourceUri: 'ui://dice/view.html' } }, ({ sides }) => {
 *   const value = 1 + Math.floor(Math.random() * sides);
 *   return { content: [{ type: 'text', text: `Rolled ${value}` }], structuredContent: { value } };
 * });
 * ```
 */
export function registerAppTool<I extends ObjectSchemaInput | undefined = undefined>(server: McpServer, name: string, config: AppToolConfig<I, undefined>, handler: ToolCallback<ToolArgs<I>>): RegisteredTool;
export function registerAppTool<I extends ObjectSchemaInput | undefined, O extends ObjectSchemaInput>(
  server: McpServer,
  name: string,
  config: AppToolConfig<I, O> & { readonly outputSchema: O },
  handler: ToolCallback<ToolArgs<I>, ToolResultOf<InferObject<O>>>,
): RegisteredTool;
export function registerAppTool(
  server: McpServer,
  name: string,
  config: AppToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>,
  handler: ToolCallback<never, unknown>,
): RegisteredTool {
  const { ui, ...toolConfig } = config;
  checkViewUri(ui.resourceUri, `Tool ${name}`);
  const ownMeta: UiToolMeta = { resourceUri: ui.resourceUri };
  if (ui.visibility !== undefined) {
    if (ui.visibility.length === 0 || !ui.visibility.every((who) => VISIBILITIES.has(who))) {
      throw new TypeError(`Tool ${name}: visibility must list "model" and/or "app"`);
    }
    ownMeta.visibility = [...ui.visibility];
  }
  const meta = { ...toolConfig._meta, ui: { ...(toolConfig._meta?.ui as object | undefined), ...ownMeta }, [LEGACY_RESOURCE_URI_META_KEY]: ui.resourceUri };
  declareApps(server);
  return server.registerTool(name, { ...toolConfig, _meta: meta } as ToolConfig<undefined, undefined>, handler as ToolCallback<ToolArgs<undefined>>);
}

/**
 * Registers a view: a `ui://` resource read as `text/html;profile=mcp-app`, its `_meta.ui`
 * (CSP, permissions, domain, border preference) on the listing and on the read contents.
 * Declares the extension.
 *
 * @example
 * ```ts
 * registerAppView(server, 'dice-view', 'ui://dice/view.html', {
 *   html: '<!doctype html><html><body><output id="value"></output></body></html>',
 *   csp: { connectDomains: [] },
 *   prefersBorder: true,
 * });
 * ```
 */
export function registerAppView(server: McpServer, name: string, uri: string, config: AppViewConfig): RegisteredResource {
  checkViewUri(uri, `View ${name}`);
  const { html, csp, permissions, domain, prefersBorder, ...metadata } = config;
  const ui: UiResourceMeta = {};
  if (csp !== undefined) ui.csp = structuredClone(csp);
  if (permissions !== undefined) ui.permissions = structuredClone(permissions);
  if (domain !== undefined) ui.domain = domain;
  if (prefersBorder !== undefined) ui.prefersBorder = prefersBorder;
  const meta = { ...metadata._meta, ui: { ...(metadata._meta?.ui as object | undefined), ...ui } };
  declareApps(server);
  return server.registerResource(name, uri, { ...metadata, mimeType: APP_MIME_TYPE, _meta: meta }, async (readUri, extra): Promise<ReadResourceResult> => {
    const text = typeof html === 'string' ? html : await html(extra);
    return { contents: [{ uri: readUri, mimeType: APP_MIME_TYPE, text, _meta: structuredClone(meta) }] };
  });
}

/**
 * The MCP Apps settings the client of this request declared (`{ mimeTypes }`), or
 * `undefined` when it did not declare the extension (then it renders no view: return text).
 * Reads the request's own `clientCapabilities` (2026-07-28) or the handshake's.
 */
export function appsSettings(extra: RequestExtra): UiExtensionSettings | undefined {
  const perRequest = extra.meta?.[CLIENT_CAPABILITIES_META_KEY];
  const capabilities = typeof perRequest === 'object' && perRequest !== null ? perRequest : extra.connection.clientCapabilities;
  const settings = extensionSettings(capabilities, UI_EXTENSION_ID);
  if (settings === undefined) return undefined;
  return Array.isArray(settings.mimeTypes) ? { mimeTypes: settings.mimeTypes.filter((type): type is string => typeof type === 'string') } : {};
}

/** True when the client of this request declared MCP Apps with the HTML view MIME type. */
export function clientSupportsApps(extra: RequestExtra): boolean {
  return appsSettings(extra)?.mimeTypes?.includes(APP_MIME_TYPE) ?? false;
}
