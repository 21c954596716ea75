/**
 * What `createStreamableHttpServer` derives from its options before it serves anything: the
 * versions it serves, the legacy HTTP+SSE paths, the session manager's options; and `node:http`,
 * loaded only when `listen()` needs it.
 */
import type * as NodeHttp from 'node:http';
import { DUAL_ERA_PROTOCOL_VERSIONS } from '@statemcp/protocol';
import type { AnySessionTransport } from './http-session.js';
import type { SessionOpening, StreamableHttpServerOptions } from './server-options.js';
import type { StreamableHttpSessionTransport } from './session-transport.js';
import type { SessionManagerOptions } from './session-manager.js';

/**
 * The protocol versions the server serves: `supportedVersions`, else the deprecated
 * `supportedProtocolVersions`, else every revision of both eras (the `Server`'s default too).
 */
export function supportedVersionsOf(options: StreamableHttpServerOptions): readonly string[] {
  return options.supportedVersions ?? options.supportedProtocolVersions ?? DUAL_ERA_PROTOCOL_VERSIONS;
}

/**
 * Attaches a server to a new session transport through `connect` or `serverFor`; resolves
 * false (after closing the transport) when that failed or left the transport unstarted.
 * Throws `TypeError` at once when the options give neither.
 */
export function transportConnector(options: StreamableHttpServerOptions): (transport: AnySessionTransport, opening: SessionOpening) => Promise<boolean> {
  const { connect, serverFor } = options;
  let attach: (transport: StreamableHttpSessionTransport, opening: SessionOpening) => unknown;
  if (connect !== undefined) attach = connect;
  else if (serverFor !== undefined) attach = async (transport, opening) => (await serverFor(opening)).connect(transport);
  else throw new TypeError('createStreamableHttpServer needs connect or serverFor');
  return async (transport, opening) => {
    try {
      await attach(transport as StreamableHttpSessionTransport, opening);
    } catch (error) {
      options.onError?.(error);
      await transport.terminate('error', { reason: 'connect failed' });
      return false;
    }
    if (!transport.started) {
      options.onError?.(new Error('connect() settled without starting the transport'));
      await transport.terminate('error', { reason: 'not started' });
      return false;
    }
    return true;
  };
}

/** The legacy HTTP+SSE paths, or undefined when `legacySse` is off. */
export function legacyPathsOf(options: StreamableHttpServerOptions): { ssePath: string; messagePath: string } | undefined {
  return options.legacySse === undefined || options.legacySse === false
    ? undefined
    : {
        ssePath: (options.legacySse === true ? undefined : options.legacySse.ssePath) ?? '/sse',
        messagePath: (options.legacySse === true ? undefined : options.legacySse.messagePath) ?? '/messages',
      };
}

/** The session manager's options, from the server's. */
export function managerOptionsOf(options: StreamableHttpServerOptions): SessionManagerOptions {
  const managerOptions: SessionManagerOptions = {};
  if (options.sessionIdleTimeoutMs !== undefined) managerOptions.idleTimeoutMs = options.sessionIdleTimeoutMs;
  if (options.maxSessions !== undefined) managerOptions.maxSessions = options.maxSessions;
  if (options.maxSessionsPerPrincipal !== undefined) managerOptions.maxSessionsPerPrincipal = options.maxSessionsPerPrincipal;
  if (options.sessionIdGenerator !== undefined) managerOptions.generateId = options.sessionIdGenerator;
  if (options.clock !== undefined) managerOptions.clock = options.clock;
  return managerOptions;
}

/**
 * `node:http`, looked up when `listen()` is called and never at import, so the fetch-style
 * front door (`handleFetch`) loads in runtimes without Node built-ins (workers, browsers).
 */
export function nodeHttp(): typeof NodeHttp {
  const loader = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const http = loader?.getBuiltinModule?.('node:http') as typeof NodeHttp | undefined;
  if (http === undefined) throw new TypeError('listen() needs node:http; in this runtime serve handleFetch with its own HTTP server');
  return http;
}
