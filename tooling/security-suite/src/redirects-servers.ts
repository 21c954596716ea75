/**
 * Servers for the redirect checks: plain `node:http` servers on 127.0.0.1, each on its own
 * port — so each is its own origin (RFC 6454: scheme, host and port). One plays the MCP server
 * that answers with a redirect; the other the "attacker" the `Location` names, which records
 * every request that reaches it (method, path, headers, body).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One request as a server saw it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A server on 127.0.0.1 that records what reaches it. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/** What a {@link startRecordingServer} answers: the handler gets the request already read. */
export type RecordingHandler = (request: RecordedRequest, res: ServerResponse) => void;

/** Starts a server that records every request, then hands it to `handle` (default: 200 `{}`). */
export async function startRecordingServer(handle?: RecordingHandler): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      if (handle !== undefined) handle(request, res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}

/** Answers every request with `status` and `Location: location`. */
export function redirectTo(location: string, status = 307): RecordingHandler {
  return (_request, res) => {
    res.writeHead(status, { location, 'content-type': 'text/plain' }).end('moved');
  };
}

/** The errors of a cause chain, outermost first. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && chain.length < 10) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

/** The error a promise rejected with (failing the test if it resolved). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** A TLS server on 127.0.0.1 with a self-signed certificate made for it (by `openssl`), and that certificate. */
export interface TlsServer {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** The PEM certificate to trust (an `https.Agent`'s `ca`). */
  readonly ca: string;
  close(): Promise<void>;
}

/** Starts an HTTPS server answering every request with `handle`; the certificate is made for this run only. */
export async function startTlsServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<TlsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'statemcp-tls-'));
  let key: string;
  let cert: string;
  try {
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'];
    execFileSync('openssl', [...args, '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'pipe' });
    key = readFileSync(join(dir, 'key.pem'), 'utf8');
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const server = createHttpsServer({ key, cert }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: cert,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
