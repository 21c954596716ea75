/**
 * Test fixture (not part of the build): a server shaped like the conformance suite's
 * (`tools-*`, `resources-*`, `prompts-*`, `completion-complete`, sampling and elicitation
 * tools), used by the interop tests against other clients.
 */
import { z } from 'zod';
import { McpServer, type McpServerOptions } from './mcp-server.js';

/** A 1×1 transparent PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A 2020-12 input schema with keywords zod would not produce; `tools/list` must keep it verbatim. */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['street'] } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contact: { anyOf: [{ type: 'string', format: 'email' }, { type: 'string', pattern: '^[0-9-]+$' }] },
    age: { allOf: [{ type: 'integer' }, { minimum: 0 }] },
  },
  if: { properties: { age: { minimum: 18 } } },
  then: { required: ['contact'] },
  else: { required: ['name'] },
  additionalProperties: false,
} as const;

export function fixtureServer(options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'statemcp-fixture', version: '1.0.0', title: 'statemcp fixture' }, { instructions: 'A fixture server.', ...options });

  server.registerTool('test_simple_text', { description: 'Returns simple text' }, () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }));
  server.registerTool('test_image_content', { description: 'Returns an image' }, () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }));
  server.registerTool('test_error_handling', { description: 'Always fails' }, () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool(
    'add',
    { title: 'Add', description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() }, annotations: { readOnlyHint: true } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('test_tool_with_progress', { description: 'Reports progress' }, async (_args, extra) => {
    for (const step of [0, 50, 100]) await extra.sendProgress(step, 100, `step ${step}`);
    return { content: [{ type: 'text', text: 'progress done' }] };
  });
  server.registerTool('test_sampling', { description: 'Samples the client model', inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const reply = await extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    const first = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [{ type: 'text', text: `LLM response: ${first?.type === 'text' ? first.text : ''}` }] };
  });
  server.registerTool('test_elicitation', { description: 'Asks the user', inputSchema: { message: z.string() } }, async ({ message }, extra) => {
    const answer = await extra.elicit({
      message,
      requestedSchema: { type: 'object', properties: { username: { type: 'string' }, email: { type: 'string' } }, required: ['username', 'email'] },
    });
    return { content: [{ type: 'text', text: `User response: ${JSON.stringify(answer)}` }] };
  });

  server.registerTool('test_audio_content', { description: 'Returns audio' }, () => ({ content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] }));
  server.registerTool('test_embedded_resource', { description: 'Returns an embedded resource' }, () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_tool_with_logging', { description: 'Logs while running' }, async (_args, extra) => {
    for (const step of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) await extra.log('info', step);
    return { content: [{ type: 'text', text: 'logged' }] };
  });
  server.registerTool('json_schema_2020_12_tool', { description: 'Keeps its JSON Schema verbatim', inputSchema: JSON_SCHEMA_2020_12 }, (args) => ({
    content: [{ type: 'text', text: JSON.stringify(args) }],
  }));
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Elicits with defaults' }, async (_args, extra) => {
    const answer = await extra.elicit({
      message: 'Defaults?',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          score: { type: 'number', default: 95.5 },
          status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', default: true },
        },
      },
    });
    return { content: [{ type: 'text', text: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
  });
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Elicits every enum form' }, async (_args, extra) => {
    const options = [
      { const: 'option1', title: 'Option 1' },
      { const: 'option2', title: 'Option 2' },
    ];
    const answer = await extra.elicit({
      message: 'Pick',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: { type: 'string', oneOf: options },
          legacyEnum: { type: 'string', enum: ['option1', 'option2'], enumNames: ['Option 1', 'Option 2'] },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2'] } },
          titledMulti: { type: 'array', items: { anyOf: options } },
        },
      },
    });
    return { content: [{ type: 'text', text: `Elicitation completed: action=${answer.action}` }] };
  });

  server.registerResource('static-text', 'test://static-text', { description: 'A static text', mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('watched', 'test://watched-resource', { description: 'Subscribable' }, (uri) => ({ contents: [{ uri, text: 'watched' }] }));
  server.registerResourceTemplate('template', 'test://template/{id}/data', { description: 'Data by id', mimeType: 'application/json' }, (uri, { id }) => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  }));

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with arguments',
      argsSchema: { arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') },
      complete: { arg1: (value) => ['testValue1', 'testValue2', 'other'].filter((option) => option.startsWith(value)) },
    },
    ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  );
  return server;
}
