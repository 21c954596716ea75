/**
 * @statemcp/server/apps — MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865) for `McpServer`:
 * tools linked to `ui://` views, views served as `text/html;profile=mcp-app` with their CSP,
 * permissions and border preference, the extension declared, and a check of whether the
 * calling client renders views (clients that do not still get the tool and its text).
 */

export { appsSettings, clientSupportsApps, registerAppTool, registerAppView } from './app-registrations.js';
export type { AppToolConfig, AppToolUi, AppViewConfig } from './app-registrations.js';

export { APP_MIME_TYPE, UI_EXTENSION_ID } from '@statemcp/protocol';
export type { UiExtensionSettings, UiResourceCsp, UiResourceMeta, UiResourcePermissions, UiToolMeta, UiVisibility } from '@statemcp/protocol';
