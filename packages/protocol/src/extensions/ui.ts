/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865): the extension id, the view MIME type and
 * the shapes of the `_meta.ui` objects a tool and a view resource carry. A tool names its view
 * (`ui://…`) in `_meta.ui.resourceUri`; the view is a resource read as
 * `text/html;profile=mcp-app`, its `_meta.ui` telling the host which origins the page may
 * reach (CSP), which browser permissions it asks for, and whether it wants a border. The
 * server helpers are in `@statemcp/server/apps`, the client helpers in `@statemcp/client/apps`.
 */

/** The extension id, the key under `capabilities.extensions`. */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The MIME type of an HTML view (`resources/read` contents MUST carry it). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The deprecated flat `_meta` key some hosts still read instead of `_meta.ui.resourceUri`. */
export const LEGACY_RESOURCE_URI_META_KEY = 'ui/resourceUri';

/** Who may call a tool: the model (agent) and/or the view (app) of the same server. */
export type UiVisibility = 'model' | 'app';

/** A tool's `_meta.ui`. */
export interface UiToolMeta {
  /** The `ui://` resource that renders this tool's results. */
  resourceUri?: string;
  /** Who may see and call the tool (default `['model', 'app']`). */
  visibility?: UiVisibility[];
}

/** Origins a view may reach; each list empty or absent means none (the host's restrictive default). */
export interface UiResourceCsp {
  /** fetch / XHR / WebSocket targets (CSP `connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Allowed `<base>` URIs (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser permissions a view asks for; hosts MAY grant them (the view must feature-detect). */
export interface UiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A view resource's `_meta.ui` (on its listing and on its `resources/read` contents). */
export interface UiResourceMeta {
  csp?: UiResourceCsp;
  permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin; its format is host-specific. */
  domain?: string;
  /** `true`: the host draws a border and background; `false`: none; absent: the host decides. */
  prefersBorder?: boolean;
}

/** The settings of the extension in capabilities: the view MIME types a side supports. */
export interface UiExtensionSettings {
  mimeTypes?: string[];
}
