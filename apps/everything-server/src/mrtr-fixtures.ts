/**
 * The Multi Round-Trip fixtures of the everything server (the conformance suite's
 * `input-required-result-*` scenarios, SEP-2322): tools and a prompt that ask the client for
 * input through `extra.elicit()`, `extra.createMessage()` and `extra.listRoots()` with the keys
 * the suite expects. Written once for both eras: a legacy client gets server-to-client requests,
 * a 2026-07-28 client `InputRequiredResult` rounds with a sealed `requestState`.
 */
import type { CallToolResult, ElicitRequestFormParams, McpServer, RequestExtra } from '@statemcp/server';

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function form(message: string, property: string, type: 'string' | 'boolean'): ElicitRequestFormParams {
  const schema = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return { mode: 'form', message, requestedSchema: { type: 'object', properties: { [property]: schema }, required: [property] } };
}

function samplingParams(prompt: string, maxTokens: number) {
  return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt } }], maxTokens };
}

function sampledText(result: Awaited<ReturnType<RequestExtra['createMessage']>>): string {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  return content?.type === 'text' ? content.text : JSON.stringify(content);
}

/** Registers the `test_input_required_result_*` tools and the `test_input_required_result_prompt` prompt. */
export function registerMrtrFixtures(server: McpServer): void {
  server.registerTool('test_input_required_result_elicitation', { description: 'Asks for a name (input key user_name), then greets' }, async (_args, extra) => {
    const answer = await extra.elicit(form('What is your name?', 'name', 'string'), { inputKey: 'user_name' });
    return text(`Hello, ${answer.action === 'accept' ? String(answer.content?.name) : 'stranger'}!`);
  });

  server.registerTool('test_input_required_result_sampling', { description: 'Asks the client to sample (input key capital_question)' }, async (_args, extra) => {
    const answer = await extra.createMessage(samplingParams('What is the capital of France?', 100), { inputKey: 'capital_question' });
    return text(`LLM response: ${sampledText(answer)}`);
  });

  server.registerTool('test_input_required_result_list_roots', { description: 'Asks for the client roots (input key client_roots)' }, async (_args, extra) => {
    const { roots } = await extra.listRoots({ inputKey: 'client_roots' });
    return text(`Client roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`);
  });

  server.registerTool('test_input_required_result_request_state', { description: 'Asks for a confirmation; the answer comes back with the sealed requestState' }, async (_args, extra) => {
    const answer = await extra.elicit(form('Please confirm', 'ok', 'boolean'), { inputKey: 'confirm' });
    return text(`state-ok: confirmed=${String(answer.content?.ok)}`);
  });

  server.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks for a name, a sampled greeting and the roots in one round' }, async (_args, extra) => {
    const [name, greeting, roots] = await Promise.all([
      extra.elicit(form('What is your name?', 'name', 'string'), { inputKey: 'user_name' }),
      extra.createMessage(samplingParams('Generate a greeting', 50), { inputKey: 'greeting' }),
      extra.listRoots({ inputKey: 'client_roots' }),
    ]);
    return text(`${sampledText(greeting)} ${String(name.content?.name)} (${roots.roots.length} roots)`);
  });

  server.registerTool('test_input_required_result_multi_round', { description: 'Asks two questions, one round each' }, async (_args, extra) => {
    const name = await extra.elicit(form('Step 1: What is your name?', 'name', 'string'), { inputKey: 'step1' });
    const color = await extra.elicit(form('Step 2: What is your favorite color?', 'color', 'string'), { inputKey: 'step2' });
    return text(`${String(name.content?.name)} likes ${String(color.content?.color)}`);
  });

  server.registerTool('test_input_required_result_tampered_state', { description: 'Asks for a confirmation; a tampered requestState is refused' }, async (_args, extra) => {
    const answer = await extra.elicit(form('Please confirm', 'ok', 'boolean'), { inputKey: 'confirm' });
    return text(`Confirmed: ${String(answer.content?.ok)}`);
  });

  server.registerTool('test_input_required_result_capabilities', { description: 'Asks only for the input kinds the request declared' }, async (_args, extra) => {
    const declared = extra.clientCapabilities;
    const asked: Promise<string>[] = [];
    if (declared.elicitation !== undefined) asked.push(extra.elicit(form('What is your name?', 'name', 'string'), { inputKey: 'user_name' }).then((answer) => `elicitation=${answer.action}`));
    if (declared.sampling !== undefined) asked.push(extra.createMessage(samplingParams('Say hello', 20), { inputKey: 'greeting' }).then((answer) => `sampling=${sampledText(answer)}`));
    if (declared.roots !== undefined) asked.push(extra.listRoots({ inputKey: 'client_roots' }).then((answer) => `roots=${answer.roots.length}`));
    const answers = await Promise.all(asked);
    return text(answers.length === 0 ? 'The request declared no input capability' : answers.join('; '));
  });

  server.registerPrompt('test_input_required_result_prompt', { description: 'Asks for context (input key user_context) before it renders' }, async (_args, extra) => {
    const answer = await extra.elicit(form('What context should the prompt use?', 'context', 'string'), { inputKey: 'user_context' });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${String(answer.content?.context)}` } }] };
  });
}
