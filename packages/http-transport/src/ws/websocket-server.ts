/**
 * A small WebSocket MCP server: listens on `host:port` (127.0.0.1 by default), reads every
 * upgrade request's target with the HTTP server's parser, checks its `Host` and `Origin` with
 * the HTTP server's guard (DNS-rebinding protection), authenticates it with the HTTP server's
 * `authenticate` hook or `authorization` layer (401 with `WWW-Authenticate` before upgrading),
 * negotiates the `mcp` subprotocol, and hands each accepted socket to `connect` as a
 * {@link WebSocketServerTransport} bound to the authenticated principal.
 *
 * Order of checks for an upgrade (first failure answers, before any WebSocket exists):
 *
 * ```
 * request target (400) → path (404) → Host + Origin (403) → subprotocol (400)
 *   → authenticate (401, or the layer's Response) → upgrade (101)
 * ```
 *
 * The WebSocket transport is a statemcp convention, not part of the MCP specification.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';

import { createAuthGate, type Admitted } from '../server/auth-gate.js';
import {
  createHostGuard,
  hostGuardFor,
  isLoopbackAddress,
  requireAllowedHostsFor,
  type HostGuardInput,
  type HostGuardResult,
} from '../server/host-guard.js';
import { fromNodeRequest, writeNodeResponse } from '../server/inbound.js';
import type { AuthenticateResult, HttpAuthorization } from '../server/server-options.js';
import { DEFAULT_WEBSOCKET_MAX_PAYLOAD, MCP_WEBSOCKET_SUBPROTOCOL } from './websocket-channel.js';
import { WebSocketServerTransport, type WebSocketTransportOptions } from './websocket-transport.js';
import { refusalReply, refuseUpgrade, textRefusal } from './websocket-upgrade.js';

/** Options of {@link createWebSocketServer}. */
export interface WebSocketServerOptions extends WebSocketTransportOptions {
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /**
   * Interface to bind. Default `127.0.0.1` (never all interfaces unless you ask). Any other
   * address (`0.0.0.0`, `::`, a LAN address) needs `allowedHosts`: without it the server
   * refuses to start with `AllowedHostsRequiredError`.
   */
  host?: string;
  /** Only upgrades on this path are accepted. Default: any path. */
  path?: string;
  /** Called with each accepted connection's transport (connect a server session to it). */
  connect: (transport: WebSocketServerTransport, request: IncomingMessage) => void | Promise<void>;
  /**
   * Accepted `Host` values, as for the HTTP server: a bare name allows any port,
   * `name:port` that port only. Default: `localhost`, `127.0.0.1`, `[::1]` for upgrades on a
   * loopback address; required when `host` is not loopback.
   */
  allowedHosts?: readonly string[];
  /**
   * Accepted `Origin` values, exact. A request without `Origin` (not a browser) is accepted.
   * Default: http(s) origins on an allowed host.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host/Origin validation, as the HTTP server's option of the same name: `'loopback'` (default: every
   * request, against the lists or the defaults of its address), `true` (the lists or the loopback
   * names, whatever the address) or `false` (never; only behind a proxy that checks `Host`).
   */
  dnsRebindingProtection?: boolean | 'loopback';
  /**
   * Authenticates each upgrade request, as the HTTP server's option of the same name: return
   * the auth info (each handler gets it as `context.authInfo`), return a `Response` to answer
   * the upgrade with it (e.g. a 401 with `WWW-Authenticate`), or throw to answer 401.
   */
  authenticate?: (request: Request) => AuthenticateResult | Promise<AuthenticateResult>;
  /**
   * An authorization layer, as the HTTP server's option of the same name (takes the place of
   * `authenticate`): `createProtectedResource` from `@statemcp/http-transport/auth`. The upgrade
   * is authenticated (401 with its challenge before upgrading), the connection is bound to the
   * token's principal, its metadata document is served on plain GETs, and each request over
   * the socket is checked against its scopes (a refused one gets a JSON-RPC error).
   */
  authorization?: HttpAuthorization;
  /** Largest accepted frame in bytes. Default 4 MiB. */
  maxPayload?: number;
}

/** A running {@link createWebSocketServer}. */
export interface WebSocketMcpServer {
  /** `ws://host:port/path` to connect to. */
  readonly url: string;
  /** The bound port (useful with `port: 0`). */
  readonly port: number;
  /** The underlying Node HTTP server. */
  readonly httpServer: Server;
  /** Transports of the connections currently open. */
  readonly connections: ReadonlySet<WebSocketServerTransport>;
  /** Closes every connection gracefully (bounded), then stops listening. */
  close(): Promise<void>;
}

/**
 * Why an upgrade request is refused, or `undefined` when it is acceptable: the HTTP
 * server's Host/Origin guard, then the subprotocol (a client that offers subprotocols must
 * offer `mcp`; one that offers none is accepted).
 */
export function checkUpgradeRequest(
  request: Pick<IncomingMessage, 'headers'> & { socket?: { localAddress?: string | undefined } },
  guard: (input: HostGuardInput) => HostGuardResult = createHostGuard(),
): { status: number; reason: string } | undefined {
  const origin = request.headers.origin;
  const localAddress = request.socket?.localAddress;
  const verdict = guard({
    host: request.headers.host,
    origin,
    loopbackBind: localAddress === undefined ? undefined : isLoopbackAddress(localAddress),
    localAddress,
  });
  if (!verdict.ok) return { status: 403, reason: verdict.reason };
  const offered = request.headers['sec-websocket-protocol'];
  if (offered !== undefined) {
    const protocols = offered.split(',').map((item) => item.trim());
    if (!protocols.includes(MCP_WEBSOCKET_SUBPROTOCOL)) {
      return { status: 400, reason: `The ${MCP_WEBSOCKET_SUBPROTOCOL} subprotocol was not offered` };
    }
  }
  return undefined;
}

/**
 * Starts a WebSocket MCP server.
 *
 * @example
 * ```ts
 * import { McpServer } from '@statemcp/server';
 * import { createWebSocketServer } from '@statemcp/http-transport/ws';
 *
 * const wsServer = await createWebSocketServer({
 *   port: 3001,
 *   connect: async (transport) => {
 *     const server = new McpServer({ name: 'demo', version: '1.0.0' });
 *     await server.connect(transport);
 *   },
 * });
 * console.log(`listening on ${wsServer.url}`);
 * ```
 */
export async function createWebSocketServer(options: WebSocketServerOptions): Promise<WebSocketMcpServer> {
  const host = options.host ?? '127.0.0.1';
  requireAllowedHostsFor(host, options, `createWebSocketServer({ host: ${JSON.stringify(host)} })`);
  const connections = new Set<WebSocketServerTransport>();
  const guard = hostGuardFor(options);
  const auth = createAuthGate(options);
  const transportOptions: WebSocketTransportOptions = {
    ...(options.closeTimeoutMs !== undefined && { closeTimeoutMs: options.closeTimeoutMs }),
    ...(options.clock !== undefined && { clock: options.clock }),
  };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload ?? DEFAULT_WEBSOCKET_MAX_PAYLOAD,
    handleProtocols: (protocols) => (protocols.has(MCP_WEBSOCKET_SUBPROTOCOL) ? MCP_WEBSOCKET_SUBPROTOCOL : false),
  });
  const httpServer = createServer((request, response) => {
    const inbound = fromNodeRequest(request, response);
    const answer =
      inbound.targetRefusal !== undefined
        ? textRefusal(400, `Bad Request: ${inbound.targetRefusal}`)
        : (auth.serve(inbound) ??
          new Response('This endpoint speaks MCP over WebSocket (subprotocol "mcp").\n', {
            status: 426,
            headers: { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket', connection: 'Upgrade' },
          }));
    void writeNodeResponse(answer, response);
  });

  /** Accepts an upgrade that passed every check, bound to what authentication admitted. */
  const accept = (request: IncomingMessage, socket: Duplex, head: Buffer, admitted: Admitted): void => {
    wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      const transport = new WebSocketServerTransport(ws, {
        ...transportOptions,
        request,
        ...(admitted.authInfo === undefined ? {} : { authInfo: admitted.authInfo }),
        ...(admitted.principal === undefined ? {} : { principal: admitted.principal }),
        ...(options.authorization?.authorize === undefined
          ? {}
          : {
              authorize: (message: unknown) => {
                const items: unknown[] = Array.isArray(message) ? message : [message];
                const refusal = auth.authorize(admitted, items);
                return refusal === undefined ? undefined : refusalReply(items, refusal, Array.isArray(message));
              },
            }),
      });
      connections.add(transport);
      ws.once('close', () => connections.delete(transport));
      Promise.resolve()
        .then(() => options.connect(transport, request))
        .catch(() => {
          ws.close(1011, 'server failed to accept the connection');
        });
    });
  };

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const inbound = fromNodeRequest(request);
    if (inbound.targetRefusal !== undefined) return refuseUpgrade(socket, textRefusal(400, `Bad Request: ${inbound.targetRefusal}`));
    if (options.path !== undefined && inbound.pathname !== options.path) {
      return refuseUpgrade(socket, textRefusal(404, `No MCP WebSocket endpoint at ${inbound.pathname}`));
    }
    const refusal = checkUpgradeRequest(request, guard);
    if (refusal !== undefined) return refuseUpgrade(socket, textRefusal(refusal.status, refusal.reason));
    const admitted = await auth.admit(inbound);
    if (admitted instanceof Response) return refuseUpgrade(socket, admitted);
    accept(request, socket, head, admitted);
  };
  httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(request, socket, head).catch(() => {
      void refuseUpgrade(socket, textRefusal(500, 'Internal error while accepting the connection')).catch(() => socket.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `ws://${urlHost}:${address.port}${options.path ?? '/'}`,
    port: address.port,
    httpServer,
    connections,
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...connections].map((transport) => transport.close()));
        wss.close();
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
