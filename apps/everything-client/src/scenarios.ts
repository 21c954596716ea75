/**
 * The client scenarios of the official MCP conformance suite that statemcp can run today
 * (2025-11-25 wire, no OAuth). Each one drives `@statemcp/client` over Streamable HTTP against
 * the suite's mock server the way an ordinary application would; the mock records the checks.
 */
import { Client, type ClientOptions } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport';
import type { InspectEvent } from '@statemcp/protocol';

export const CLIENT_INFO = { name: 'statemcp-everything-client', version: '0.0.0' } as const;

/** What a scenario gets: the mock server's URL and a logger (stderr, kept by the suite). */
export interface ScenarioContext {
  readonly serverUrl: string;
  readonly log: (line: string) => void;
}

export type Scenario = (context: ScenarioContext) => Promise<void>;

/** Logs every connection transition and settled request, so a failing run can be read from stderr.txt. */
function tracer(log: (line: string) => void): (event: InspectEvent) => void {
  return (event) => {
    if (event.type === 'session.transition') log(`connection ${event.from} -> ${event.to} (${event.event})`);
    else if (event.type === 'request.transition' && ['completed', 'failed', 'cancelled', 'expired', 'aborted'].includes(event.to)) {
      log(`${event.direction} ${event.method} #${String(event.requestId)} ${event.to} after ${Math.round(event.elapsedMs)} ms`);
    }
  };
}

async function withClient(context: ScenarioContext, options: ClientOptions, body: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client(CLIENT_INFO, { ...options, inspect: tracer(context.log) });
  const transport = new StreamableHttpClientTransport(context.serverUrl, {
    onStreamStateChange: (change) => context.log(`${change.stream} stream: ${change.state.kind}`),
  });
  await client.connect(transport);
  context.log(`connected: protocol ${client.protocolVersion ?? '?'}, server ${client.serverInfo?.name ?? '?'}`);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** The handshake, then a tools listing when the server offers tools (as real clients do). */
const initialize: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    if (client.serverCapabilities?.tools === undefined) return;
    const { tools } = await client.listTools();
    context.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  });

/** List the tools, then call `add_numbers` with two numbers. */
const toolsCall: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const { tools } = await client.listTools();
    context.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
    const result = await client.callTool({ name: 'add_numbers', arguments: { a: 5, b: 3 } });
    context.log(`add_numbers: ${JSON.stringify(result.content)}`);
  });

/** Accept an elicitation with empty content: the client fills in every schema default (SEP-1034). */
const elicitationDefaults: Scenario = (context) =>
  withClient(context, { onElicitation: () => ({ action: 'accept', content: {} }) }, async (client) => {
    const result = await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} });
    context.log(`test_client_elicitation_defaults: ${JSON.stringify(result.content)}`);
  });

/** The mock closes the tool call's SSE stream after a priming event with `retry: 500`; the transport resumes with GET + Last-Event-ID. */
const sseRetry: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
    context.log(`test_reconnection: ${JSON.stringify(result.content)}`);
  });

/** Pass a JSON Schema 2020-12 input schema back unchanged: nothing in the client may rewrite it. */
const jsonSchemaPreservation: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const { tools } = await client.listTools();
    const source = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (source === undefined) throw new Error('json_schema_2020_12_tool is not listed');
    const result = await client.callTool({ name: 'json_schema_echo', arguments: { schema: source.inputSchema } });
    context.log(`json_schema_echo: ${JSON.stringify(result.content)}`);
  });

/**
 * Skills (SEP-2640) host scenarios: statemcp hosts do not use the skills extension, so they
 * behave like any host that does not — connect, list what the server offers, fetch nothing.
 */
const skillsUnawareHost: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    if (client.serverCapabilities?.tools === undefined) return;
    const { tools } = await client.listTools();
    context.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  });

/** Every scenario this client implements, by the name in `MCP_CONFORMANCE_SCENARIO`. */
export const SCENARIOS: Readonly<Record<string, Scenario>> = Object.freeze({
  initialize,
  tools_call: toolsCall,
  'elicitation-sep1034-client-defaults': elicitationDefaults,
  'sse-retry': sseRetry,
  'json-schema-2020-12-preservation': jsonSchemaPreservation,
  'sep-2640-client-no-prefetch': skillsUnawareHost,
  'sep-2640-client-verify-digest': skillsUnawareHost,
  'sep-2640-client-verify-size': skillsUnawareHost,
  'sep-2640-client-verify-frontmatter': skillsUnawareHost,
});
