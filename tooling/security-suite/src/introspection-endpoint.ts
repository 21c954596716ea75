/**
 * A token introspection endpoint (RFC 7662) on 127.0.0.1 for the introspection finding: it
 * answers each token with the JSON its test configured (or never answers, for timeouts), checks
 * the resource's Basic credentials, and counts the calls per token.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const RESOURCE_CLIENT = { id: 'mcp-resource', secret: 's3cret' };

/** What the endpoint answers for one token: a JSON body, or `'hang'` (never answers). */
export type IntrospectionAnswer = Record<string, unknown> | 'hang';

export interface IntrospectionEndpoint {
  readonly url: string;
  /** Sets the answer for a token. */
  answer(token: string, answer: IntrospectionAnswer): void;
  /** How many times a token was introspected. */
  calls(token: string): number;
  close(): Promise<void>;
}

export async function startIntrospectionEndpoint(): Promise<IntrospectionEndpoint> {
  const answers = new Map<string, IntrospectionAnswer>();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const expected = `Basic ${btoa(`${RESOURCE_CLIENT.id}:${RESOURCE_CLIENT.secret}`)}`;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
        return;
      }
      const token = new URLSearchParams(body).get('token') ?? '';
      counts.set(token, (counts.get(token) ?? 0) + 1);
      const answer = answers.get(token) ?? { active: false };
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`,
    answer: (token, answer) => answers.set(token, answer),
    calls: (token) => counts.get(token) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
