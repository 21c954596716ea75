/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865) for a host built on `Client`: declare the
 * extension, read a tool's `_meta.ui` (its `ui://` view and who may call it), and fetch a
 * view as HTML with its CSP, permissions and border preference. Rendering the view (a
 * sandboxed iframe speaking JSON-RPC over `postMessage`) is the host's job.
 */
import {
  APP_MIME_TYPE,
  InvalidResultError,
  UI_EXTENSION_ID,
  extensionSettings,
  withExtension,
  type JsonObject,
  type UiExtensionSettings,
  type UiResourceMeta,
  type UiToolMeta,
  type UiVisibility,
} from '@statemcp/protocol';
import { LEGACY_RESOURCE_URI_META_KEY } from '@statemcp/protocol/internal';
import type { Client } from '../client.js';
import type { ClientCapabilities, ResourceContents, ServerCapabilities, Tool } from '../types.js';

/** A view read with {@link readAppView}. */
export interface AppView {
  readonly uri: string;
  /** The HTML document (decoded when the server sent a base64 `blob`). */
  readonly html: string;
  /** CSP, permissions, domain and border preference (`{}` when the server gave none). */
  readonly ui: UiResourceMeta;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

/**
 * `capabilities` plus the MCP Apps extension with the view MIME types this host renders
 * (default `text/html;profile=mcp-app`), for `new Client(info, { capabilities })`.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: withAppsSupport({ roots: {} }) });
 * ```
 */
export function withAppsSupport(capabilities: ClientCapabilities = {}, mimeTypes: readonly string[] = [APP_MIME_TYPE]): ClientCapabilities {
  const settings: UiExtensionSettings = { mimeTypes: [...mimeTypes] };
  return withExtension(capabilities, UI_EXTENSION_ID, settings as JsonObject);
}

/** The MCP Apps settings a server declared (`{ mimeTypes }`), or `undefined` when it did not declare the extension. */
export function serverAppsSettings(capabilities: ServerCapabilities | undefined): UiExtensionSettings | undefined {
  const settings = extensionSettings(capabilities, UI_EXTENSION_ID);
  if (settings === undefined) return undefined;
  const mimeTypes = stringList(settings.mimeTypes);
  return mimeTypes === undefined ? {} : { mimeTypes };
}

/**
 * A tool's `_meta.ui`, checked: `resourceUri` only when it is a `ui://` URI (the deprecated
 * flat `ui/resourceUri` key is read too), `visibility` only with known values. `undefined`
 * when the tool has no view and no visibility.
 */
export function toolUi(tool: Pick<Tool, '_meta'>): UiToolMeta | undefined {
  const meta = tool._meta;
  if (!isObject(meta)) return undefined;
  const ui = isObject(meta.ui) ? meta.ui : {};
  const out: UiToolMeta = {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : meta[LEGACY_RESOURCE_URI_META_KEY];
  if (typeof uri === 'string' && uri.startsWith('ui://')) out.resourceUri = uri;
  const visibility = stringList(ui.visibility)?.filter((who): who is UiVisibility => who === 'model' || who === 'app');
  if (visibility !== undefined) out.visibility = visibility;
  return out.resourceUri === undefined && out.visibility === undefined ? undefined : out;
}

/** Whether the model may see and call `tool` (its visibility includes `model`, the default). */
export function isToolVisibleToModel(tool: Pick<Tool, '_meta'>): boolean {
  return toolUi(tool)?.visibility?.includes('model') ?? true;
}

/** Whether a view of the same server may call `tool` (its visibility includes `app`, the default). */
export function isToolCallableByApp(tool: Pick<Tool, '_meta'>): boolean {
  return toolUi(tool)?.visibility?.includes('app') ?? true;
}

/** The `_meta.ui` of a view's contents (or listing), `{}` when absent. */
export function viewUi(item: { readonly _meta?: { readonly [key: string]: unknown } | undefined }): UiResourceMeta {
  const ui = item._meta?.ui;
  if (!isObject(ui)) return {};
  const out: UiResourceMeta = {};
  if (isObject(ui.csp)) {
    const csp: NonNullable<UiResourceMeta['csp']> = {};
    for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
      const list = stringList(ui.csp[key]);
      if (list !== undefined) csp[key] = list;
    }
    out.csp = csp;
  }
  if (isObject(ui.permissions)) {
    const permissions: NonNullable<UiResourceMeta['permissions']> = {};
    for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) {
      if (isObject(ui.permissions[key])) permissions[key] = {};
    }
    out.permissions = permissions;
  }
  if (typeof ui.domain === 'string') out.domain = ui.domain;
  if (typeof ui.prefersBorder === 'boolean') out.prefersBorder = ui.prefersBorder;
  return out;
}

function decodeBase64(blob: string): string {
  const binary = atob(blob);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function htmlOf(contents: ResourceContents): string | undefined {
  if ('text' in contents && typeof contents.text === 'string') return contents.text;
  if ('blob' in contents && typeof contents.blob === 'string') return decodeBase64(contents.blob);
  return undefined;
}

/**
 * Reads the view at `uri` (`resources/read`) and returns its HTML and `_meta.ui`. Rejects
 * with `InvalidResultError` when the server answers without `text/html;profile=mcp-app`
 * contents.
 *
 * @example
 * ```ts
 * const tool = (await client.listTools()).tools.find((t) => toolUi(t)?.resourceUri !== undefined);
 * const view = await readAppView(client, toolUi(tool!)!.resourceUri!);
 * // render view.html in a sandboxed iframe with a CSP built from view.ui.csp
 * ```
 */
export async function readAppView(client: Client, uri: string): Promise<AppView> {
  const { contents } = await client.readResource({ uri });
  const item = contents.find((candidate) => candidate.mimeType === APP_MIME_TYPE);
  const html = item === undefined ? undefined : htmlOf(item);
  if (item === undefined || html === undefined) {
    throw new InvalidResultError(`Resource ${uri} is not an MCP Apps view: no ${APP_MIME_TYPE} contents with text or blob`);
  }
  return { uri: item.uri, html, ui: viewUi(item) };
}
