/**
 * The client scenarios of the official MCP conformance suite that statemcp can run today
 * (the 2025-11-25 and 2026-07-28 wires, no OAuth). Each one drives `@statemcp/client` over
 * Streamable HTTP against the suite's mock server the way an ordinary application would; the
 * mock records the checks. On the 2026-07-28 wire the client is pinned to the modern era.
 */
import { Client, type ClientOptions } from '@statemcp/client';
import { loadSkill, SkillVerificationError } from '@statemcp/client/skills';
import { StreamableHttpClientTransport, type HttpAuthProvider } from '@statemcp/http-transport/client';
import { isJsonObject, type InspectEvent, type JsonObject } from '@statemcp/protocol';

export const CLIENT_INFO = { name: 'statemcp-everything-client', version: '0.0.0' } as const;

/** What a scenario gets: the mock server's URL, a logger (stderr, kept by the suite), the era of the wire and the suite's scenario data. */
export interface ScenarioContext {
  readonly serverUrl: string;
  readonly log: (line: string) => void;
  /** `modern` on the 2026-07-28 wire, `legacy` otherwise (default). */
  readonly era?: 'modern' | 'legacy';
  /** `MCP_CONFORMANCE_CONTEXT`, parsed, when the suite gives one. */
  readonly data?: JsonObject | undefined;
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

export async function withClient(
  context: ScenarioContext,
  options: ClientOptions,
  body: (client: Client) => Promise<void>,
  authProvider?: HttpAuthProvider,
): Promise<void> {
  const client = new Client(CLIENT_INFO, { era: context.era ?? 'legacy', ...options, inspect: tracer(context.log) });
  const transport = new StreamableHttpClientTransport(context.serverUrl, {
    ...(authProvider !== undefined && { authProvider }),
    onStreamStateChange: (change) => context.log(`${change.stream} stream: ${change.state.kind}`),
  });
  await client.connect(transport);
  context.log(`connected: ${client.era ?? '?'} era, protocol ${client.protocolVersion ?? '?'}, server ${client.serverInfo?.name ?? '?'}`);
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
 * Skills (SEP-2640) host, no prefetch: build the registry from `skills/list` alone; no skill
 * is loaded, so no file is read.
 */
const skillsRegistry: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const { skills } = await client.listSkills();
    context.log(`skills: ${skills.map((skill) => `${skill.uri} (${skill.frontmatter.description})`).join(', ')}`);
  });

/**
 * Skills (SEP-2640) host loading every listed skill: `SKILL.md` verified (size, digest,
 * frontmatter) before use, then each supporting file read and verified; a skill that fails
 * verification is refused whole and none of its other files is read.
 */
const skillsLoader: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const { skills } = await client.listSkills();
    for (const entry of skills) {
      try {
        const skill = await loadSkill(client, entry);
        for (const file of skill.files) if (file.uri !== entry.uri) await skill.readFile(file.uri);
        context.log(`loaded ${entry.uri}: ${skill.files.length} file(s) verified`);
      } catch (error) {
        if (!(error instanceof SkillVerificationError)) throw error;
        context.log(`refused ${entry.uri}: ${error.failure}: ${error.message}`);
      }
    }
  });

/** 2026-07-28: every request carries the per-request `_meta` with roots, sampling and elicitation declared; a -32022 is retried. */
const requestMetadata: Scenario = (context) =>
  withClient(
    context,
    {
      onSampling: () => ({ role: 'assistant', content: { type: 'text', text: 'unused' }, model: 'none' }),
      onElicitation: () => ({ action: 'decline' }),
      roots: [{ uri: 'file:///tmp', name: 'tmp' }],
    },
    async (client) => {
      if (client.serverCapabilities?.tools === undefined) return; // discovery alone carried the _meta
      const { tools } = await client.listTools();
      context.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
    },
  );

/** 2026-07-28: `Mcp-Method` on every POST, `Mcp-Name` on calls, reads and gets, over whatever the mock lists. */
const standardHeaders: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const capabilities = client.serverCapabilities ?? {};
    if (capabilities.tools !== undefined) {
      for (const tool of (await client.listTools()).tools) await client.callTool({ name: tool.name, arguments: {} });
    }
    if (capabilities.resources !== undefined) {
      for (const resource of (await client.listResources()).resources) await client.readResource({ uri: resource.uri });
    }
    if (capabilities.prompts !== undefined) {
      for (const prompt of (await client.listPrompts()).prompts) await client.getPrompt({ name: prompt.name });
    }
  });

/** 2026-07-28: list the tools, then make the calls the suite names; annotated arguments travel as `Mcp-Param-*` headers. */
const customHeaders: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    await client.listTools();
    const calls = context.data?.toolCalls;
    for (const call of Array.isArray(calls) ? calls : []) {
      if (!isJsonObject(call) || typeof call.name !== 'string') continue;
      const result = await client.callTool({ name: call.name, arguments: isJsonObject(call.arguments) ? call.arguments : {} });
      context.log(`${call.name}: ${JSON.stringify(result.content)}`);
    }
  });

/** 2026-07-28: tools with invalid `x-mcp-header` annotations are left out of the listing; call what remains. */
const invalidToolHeaders: Scenario = (context) =>
  withClient(context, {}, async (client) => {
    const { tools } = await client.listTools();
    context.log(`tools kept: ${tools.map((tool) => tool.name).join(', ')}`);
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: { region: 'us-west1' } });
  });

/** 2026-07-28 MRTR: input requests answered through `onElicitation`, state echoed, a new id per retry, nothing leaking into other calls. */
const requestState: Scenario = (context) =>
  withClient(context, { onElicitation: () => ({ action: 'accept', content: { confirmed: true } }) }, async (client) => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: {} });
      context.log(`${tool.name}: ${JSON.stringify(result.content)}`);
    }
  });

/** 2026-07-28: list tools whose schemas `$ref` a network URI; nothing is fetched. */
const refNoDeref: Scenario = (context) =>
  withClient(context, {}, async (client) => {
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
  'request-metadata': requestMetadata,
  'http-standard-headers': standardHeaders,
  'http-custom-headers': customHeaders,
  'http-invalid-tool-headers': invalidToolHeaders,
  'sep-2322-client-request-state': requestState,
  'json-schema-ref-no-deref': refNoDeref,
  'sep-2640-client-no-prefetch': skillsRegistry,
  'sep-2640-client-verify-digest': skillsLoader,
  'sep-2640-client-verify-size': skillsLoader,
  'sep-2640-client-verify-frontmatter': skillsLoader,
});
