/**
 * RFC 6570 URI templates: the implementation lives in `@statemcp/protocol` (the client expands
 * the same templates); re-exported here for the server's resource templates.
 */
export { UriTemplate } from '@statemcp/protocol';
export type { UriTemplateValue } from '@statemcp/protocol';
