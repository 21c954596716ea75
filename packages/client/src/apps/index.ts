/**
 * @statemcp/client/apps — MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865) for hosts: declare
 * support, read a tool's typed UI metadata, and fetch a view with its CSP, permissions and
 * border preference.
 */

export { isToolCallableByApp, isToolVisibleToModel, readAppView, serverAppsSettings, toolUi, viewUi, withAppsSupport } from './app-views.js';
export type { AppView } from './app-views.js';

export { APP_MIME_TYPE, UI_EXTENSION_ID } from '@statemcp/protocol';
export type { UiExtensionSettings, UiResourceCsp, UiResourceMeta, UiResourcePermissions, UiToolMeta, UiVisibility } from '@statemcp/protocol';
