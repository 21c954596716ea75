/**
 * Fixtures for the tests of `extra.http` (the HTTP request that carried a call) and of the
 * framework adapters: an `McpServer` whose tool, resource and prompt each report the request
 * they were called with, and a statemcp client that reads all three.
 */
import { Client } from '@statemcp/client';
import type { HttpRequestInfo, Transport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** What a handler saw: the request's parts, or `absent` when there was no HTTP request. */
export type SeenRequest =
  | { readonly absent: true }
  | {
      readonly absent: false;
      readonly method: string;
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly remoteAddress: string | undefined;
      readonly frozen: boolean;
    };

function describeRequest(http: HttpRequestInfo | undefined): SeenRequest {
  if (http === undefined) return { absent: true };
  return {
    absent: false,
    method: http.method,
    url: http.url,
    headers: http.headers,
    remoteAddress: http.remoteAddress,
    frozen: Object.isFrozen(http) && Object.isFrozen(http.headers),
  };
}

/** An `McpServer` with a tool, a resource and a prompt that each report `extra.http`. */
export function buildRequestInfoServer(): McpServer {
  const server = new McpServer({ name: 'request-info', version: '1.0.0' });
  server.registerTool('http_request', { description: 'Reports the HTTP request of this call' }, (_args, extra) => ({
    content: [{ type: 'text', text: JSON.stringify(describeRequest(extra.http)) }],
  }));
  server.registerResource('http-request', 'info://http-request', { mimeType: 'application/json' }, (uri, extra) => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(describeRequest(extra.http)) }],
  }));
  server.registerPrompt('http_request', { description: 'Reports the HTTP request of this call' }, (_args, extra) => ({
    messages: [{ role: 'user', content: { type: 'text', text: JSON.stringify(describeRequest(extra.http)) } }],
  }));
  return server;
}

/** What the tool, the resource and the prompt each saw, read by a statemcp client over `transport`. */
export async function readSeenRequests(transport: Transport): Promise<{ tool: SeenRequest; resource: SeenRequest; prompt: SeenRequest }> {
  const client = new Client({ name: 'request-info-client', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tool = await client.callTool({ name: 'http_request', arguments: {} });
    const resource = await client.readResource({ uri: 'info://http-request' });
    const prompt = await client.getPrompt({ name: 'http_request' });
    const toolBlock = tool.content[0];
    const resourceItem = resource.contents[0];
    const promptContent = prompt.messages[0]?.content;
    const parse = (text: unknown): SeenRequest => JSON.parse(typeof text === 'string' ? text : 'null') as SeenRequest;
    return {
      tool: parse(toolBlock?.type === 'text' ? toolBlock.text : undefined),
      resource: parse(resourceItem !== undefined && 'text' in resourceItem ? resourceItem.text : undefined),
      prompt: parse(promptContent?.type === 'text' ? promptContent.text : undefined),
    };
  } finally {
    await client.close();
  }
}
