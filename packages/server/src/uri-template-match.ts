/** The variables of a matched URI template, typed from the template text: see `@statemcp/protocol`. */
export type { UriTemplateMatch, UriTemplateVariables } from '@statemcp/protocol';
