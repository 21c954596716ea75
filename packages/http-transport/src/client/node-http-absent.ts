/**
 * `#node-http-fetch` under a bundler's `browser` condition: no `node:http` client, so the
 * transports use the global `fetch` and read its `Response` bodies as web streams. The same
 * names and types as `node-http-fetch.ts`, the variant everywhere else.
 */
import type * as OnNode from './node-http-fetch.js';

/** No Node default here: the transports use the global `fetch`. */
export const nodeDefaultFetch: typeof OnNode.nodeDefaultFetch = () => undefined;

/** No `nodeHttpFetch` response exists here: every body is read as a web stream. */
export const claimNodeBody: typeof OnNode.claimNodeBody = () => undefined;

/** `response.headers.get(name)`. */
export const responseHeader: typeof OnNode.responseHeader = (response, name) => response.headers.get(name);

/** Whether `response` carries a body. */
export const hasBody: typeof OnNode.hasBody = (response) => response.body !== null;

/** No `node:http` here: the transport POSTs with `fetch`. */
export const nodeDefaultPost: typeof OnNode.nodeDefaultPost = () => undefined;
