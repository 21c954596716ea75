/**
 * The fixtures of the everything server: every tool, resource, resource template and prompt
 * the official MCP conformance suite's server scenarios call, with the names and payloads the
 * suite hard-codes (the conformance suite's server scenarios), registered on one `McpServer`.
 * Transport-independent: `main.ts` serves it over stdio or Streamable HTTP, tests over the
 * in-memory transport.
 */
import type { RequestId } from '@statemcp/protocol';
import {
  McpServer,
  type CallToolResult,
  type DurableTaskStore,
  type ElicitRequestFormParams,
  type RequestStateOptions,
  type ServerClusterOptions,
  type ServerConnection,
  type TaskExecutor,
} from '@statemcp/server';
import { z } from 'zod';
import { PNG_BASE64, WAV_BASE64 } from './media.js';
import { registerMrtrFixtures } from './mrtr-fixtures.js';
import { registerTaskFixtures } from './task-fixtures.js';

export const SERVER_INFO = { name: 'statemcp-everything-server', version: '0.0.0' } as const;

export interface EverythingServerOptions {
  /**
   * Ends the SSE connection carrying a request so the client resumes it with `Last-Event-ID`
   * (Streamable HTTP with an event store; `test_reconnection` uses it). Return false when the
   * transport cannot, and the tool then simply answers on the open stream.
   */
  readonly closeRequestStream?: (connection: ServerConnection, requestId: RequestId) => boolean;
  /** Pause between the steps of the logging, progress and reconnection tools, ms (default 50). */
  readonly stepDelayMs?: number;
  /** Where the tasks extension keeps its tasks (default: in memory); shared by a cluster's instances. */
  readonly taskStore?: DurableTaskStore;
  /** Where the handlers of tasks run (default: in this process); a cluster's instances queue them on a job queue. */
  readonly taskExecutor?: TaskExecutor;
  /** How Multi Round-Trip `requestState` is sealed; a cluster's instances share one key. */
  readonly requestState?: RequestStateOptions;
  /** Resource subscriptions and task commands shared with the other instances of a cluster. */
  readonly cluster?: ServerClusterOptions;
}

/** The schema `test_elicitation` asks the client to fill in. */
export const USER_INFO_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "The user's name" },
    email: { type: 'string', description: "The user's email address" },
  },
  required: ['username', 'email'],
};

/** SEP-1034: a default for every primitive type. */
export const DEFAULTS_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Your name', default: 'John Doe' },
    age: { type: 'integer', description: 'Your age', default: 30 },
    score: { type: 'number', description: 'Your score', default: 95.5 },
    status: { type: 'string', description: 'Account status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Whether the account is verified', default: true },
  },
};

/** SEP-1330: all five enum forms. */
export const ENUMS_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Untitled single choice', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Titled single choice',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Titled single choice, legacy form',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Untitled multiple choice',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Titled multiple choice',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/** The JSON Schema 2020-12 input schema that must reach clients keyword for keyword (SEP-1613, SEP-2106). */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Builds the everything server. One instance serves any number of connections. */
export function createEverythingServer(options: EverythingServerOptions = {}): McpServer {
  const step = options.stepDelayMs ?? 50;
  const server = new McpServer(SERVER_INFO, {
    instructions: 'Conformance fixtures of statemcp: every tool, resource and prompt the official MCP conformance suite calls.',
    ...(options.taskStore === undefined && options.taskExecutor === undefined
      ? {}
      : { taskExtension: { ...(options.taskStore === undefined ? {} : { store: options.taskStore }), ...(options.taskExecutor === undefined ? {} : { executor: options.taskExecutor }) } }),
    ...(options.requestState === undefined ? {} : { requestState: options.requestState }),
    ...(options.cluster === undefined ? {} : { cluster: options.cluster }),
  });

  // ── tools ────────────────────────────────────────────────────────────────────────────
  server.registerTool('test_simple_text', { description: 'Returns a simple text response' }, () =>
    text('This is a simple text response for testing.'),
  );

  server.registerTool('test_image_content', { description: 'Returns a PNG image' }, () => ({
    content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
  }));

  server.registerTool('test_audio_content', { description: 'Returns a WAV audio clip' }, () => ({
    content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
  }));

  server.registerTool('test_embedded_resource', { description: 'Returns an embedded text resource' }, () => ({
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  }));

  server.registerTool('test_multiple_content_types', { description: 'Returns text, an image and an embedded resource' }, () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
      },
    ],
  }));

  server.registerTool('test_tool_with_logging', { description: 'Sends three log messages while it runs' }, async (_args, extra) => {
    await extra.log('info', 'Tool execution started', 'everything-server');
    await sleep(step, extra.signal);
    await extra.log('info', 'Tool processing data', 'everything-server');
    await sleep(step, extra.signal);
    await extra.log('info', 'Tool execution completed', 'everything-server');
    return text('Tool with logging executed successfully');
  });

  server.registerTool('test_error_handling', { description: 'Always fails with a tool error (isError: true)' }, () => ({
    isError: true,
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
  }));

  server.registerTool('test_tool_with_progress', { description: 'Reports progress 0, 50 and 100 of 100' }, async (_args, extra) => {
    await extra.sendProgress(0, 100, 'started');
    await sleep(step, extra.signal);
    await extra.sendProgress(50, 100, 'halfway');
    await sleep(step, extra.signal);
    await extra.sendProgress(100, 100, 'done');
    return text('Tool with progress completed');
  });

  server.registerTool(
    'test_sampling',
    { description: 'Asks the client to sample an LLM', inputSchema: { prompt: z.string().describe('The prompt to send to the LLM') } },
    async ({ prompt }, extra) => {
      const result = await extra.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      const reply = content?.type === 'text' ? content.text : JSON.stringify(content);
      return text(`LLM response: ${reply}`);
    },
  );

  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user for a name and an email', inputSchema: { message: z.string().describe('The message to show the user') } },
    async ({ message }, extra) => {
      const result = await extra.elicit({ mode: 'form', message, requestedSchema: USER_INFO_SCHEMA });
      return text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
    },
  );

  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Elicitation whose fields all have defaults (SEP-1034)' }, async (_args, extra) => {
    const result = await extra.elicit({ mode: 'form', message: 'Please review your profile', requestedSchema: DEFAULTS_SCHEMA });
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });

  server.registerTool('test_elicitation_sep1330_enums', { description: 'Elicitation with every enum form (SEP-1330)' }, async (_args, extra) => {
    const result = await extra.elicit({ mode: 'form', message: 'Please choose', requestedSchema: ENUMS_SCHEMA });
    return text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  });

  server.registerTool(
    'test_reconnection',
    { description: 'Closes its own SSE stream mid-call; the result arrives after the client reconnects (SEP-1699)' },
    async (_args, extra) => {
      await sleep(step, extra.signal);
      const closed = options.closeRequestStream?.(extra.connection, extra.requestId) ?? false;
      if (closed) await sleep(step * 2, extra.signal);
      return text(closed ? 'Reconnection test completed after the stream was closed' : 'Reconnection test completed');
    },
  );

  server.registerTool('json_schema_2020_12_tool', { description: 'Tool with JSON Schema 2020-12 features', inputSchema: JSON_SCHEMA_2020_12 }, (args) =>
    text(`Received: ${JSON.stringify(args)}`),
  );

  server.registerTool(
    'add_numbers',
    { description: 'Adds two numbers', inputSchema: { a: z.number().describe('First number'), b: z.number().describe('Second number') } },
    ({ a, b }) => text(`The sum of ${a} and ${b} is ${a + b}`),
  );

  // ── 2026-07-28 diagnostics (server-stateless, http-custom-header-server-validation) ─────
  server.registerTool('test_missing_capability', { description: 'Needs the sampling capability declared on the request (-32021 otherwise)' }, (_args, extra) => {
    extra.requireClientCapabilities({ sampling: {} });
    return text('The request declared sampling');
  });
  server.registerTool('test_streaming_elicitation', { description: 'Answers on the request stream only; never sends a request of its own' }, () =>
    text('Streaming elicitation test completed'),
  );
  server.registerTool('test_logging_tool', { description: 'Logs only when the request asked for a level in its _meta' }, async (_args, extra) => {
    await extra.log('info', 'test_logging_tool ran');
    return text('Logging tool completed');
  });
  server.registerTool(
    'test_x_mcp_header',
    {
      description: 'Its region argument is mirrored in the Mcp-Param-Region header (SEP-2243)',
      inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] },
    },
    (args) => text(`Region: ${String((args as { region?: unknown }).region)}`),
  );

  // ── 2026-07-28 listen triggers (server-stateless): a list changes, and changes back ─────
  server.registerTool('test_trigger_tool_change', { description: 'Changes the tool list (one tools/list_changed on listen streams)' }, () => {
    server.registerTool('test_trigger_tool_change_temporary', { description: 'Registered and removed at once' }, () => text('temporary')).remove();
    return text('The tool list changed');
  });
  server.registerTool('test_trigger_prompt_change', { description: 'Changes the prompt list (one prompts/list_changed on listen streams)' }, () => {
    server.registerPrompt('test_trigger_prompt_change_temporary', { description: 'Registered and removed at once' }, () => ({ messages: [] })).remove();
    return text('The prompt list changed');
  });
  registerTaskFixtures(server, sleep);

  // ── resources ────────────────────────────────────────────────────────────────────────
  server.registerResource(
    'static-text',
    'test://static-text',
    { title: 'Static text', description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
  );

  server.registerResource(
    'static-binary',
    'test://static-binary',
    { title: 'Static binary', description: 'A static PNG image', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: PNG_BASE64 }] }),
  );

  server.registerResourceTemplate(
    'template-data',
    'test://template/{id}/data',
    {
      title: 'Data by id',
      description: 'JSON data for any id',
      mimeType: 'application/json',
      complete: { id: (value) => ['1', '2', '3', '123'].filter((id) => id.startsWith(value)) },
    },
    (uri, { id = '' }) => ({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
    }),
  );

  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { title: 'Watched resource', description: 'A resource clients can subscribe to', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }] }),
  );
  server.registerTool('touch_watched_resource', { description: 'Tells the subscribers of test://watched-resource that it changed' }, async () => {
    await server.notifyResourceUpdated('test://watched-resource');
    return text('test://watched-resource updated');
  });

  // ── prompts ──────────────────────────────────────────────────────────────────────────
  server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));

  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two required arguments',
      argsSchema: { arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') },
      complete: {
        arg1: (value) => ['test', 'testValue1', 'paris', 'park'].filter((candidate) => candidate.startsWith(value)),
        arg2: (value) => ['testValue2', 'london'].filter((candidate) => candidate.startsWith(value)),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );

  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt that embeds a resource', argsSchema: { resourceUri: z.string().describe('URI of the resource to embed') } },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );

  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));

  registerMrtrFixtures(server);
  return server;
}
