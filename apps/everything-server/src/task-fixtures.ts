/**
 * The fixtures of the tasks extension's conformance scenarios (`tasks-*`, SEP-2663): a sync-only
 * tool and task-capable tools that sleep, fail in both ways, and ask for input while running as
 * a task (the same `extra.elicit()` an inline tool uses; inside a task it becomes one of the
 * task's `inputRequests`, answered through `tasks/update`).
 */
import { ErrorCode, JsonRpcError } from '@statemcp/protocol';
import type { CallToolResult, ElicitResult, McpServer } from '@statemcp/server';
import { z } from 'zod';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

function describeAnswer(answer: ElicitResult): string {
  return `${answer.action}${answer.content === undefined ? '' : ` ${JSON.stringify(answer.content)}`}`;
}

/** Registers `greet`, `slow_compute`, `failing_job`, `protocol_error_job`, `confirm_delete`, `multi_input` and `test_tool_with_task`. */
export function registerTaskFixtures(server: McpServer, sleep: (ms: number, signal: AbortSignal) => Promise<void>): void {
  server.registerTool('greet', { description: 'Greets by name (never a task)', inputSchema: { name: z.string() } }, ({ name }) => text(`Hello, ${name}!`));

  server.registerTool(
    'slow_compute',
    {
      description: 'Sleeps for `seconds`, then reports; runs as a task when the client declares the tasks extension',
      inputSchema: { seconds: z.number().min(0).default(1), label: z.string().optional() },
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, extra) => {
      await sleep(seconds * 1000, extra.signal);
      return text(`Computed ${label ?? 'result'} after ${seconds}s`);
    },
  );

  server.registerTool(
    'failing_job',
    { description: 'Runs only as a task and ends in a tool error (isError: true)', execution: { taskSupport: 'required' } },
    async (_args, extra) => {
      await sleep(300, extra.signal);
      return { content: [{ type: 'text', text: 'The job failed' }], isError: true };
    },
  );

  server.registerTool(
    'protocol_error_job',
    { description: 'Ends in a JSON-RPC error (a failed task)', execution: { taskSupport: 'optional' } },
    async (_args, extra) => {
      await sleep(100, extra.signal);
      throw new JsonRpcError(ErrorCode.InternalError, 'The job crashed');
    },
  );

  server.registerTool(
    'confirm_delete',
    { description: 'Asks for confirmation, then deletes (pretends to)', inputSchema: { filename: z.string() }, execution: { taskSupport: 'optional' } },
    async ({ filename }, extra) => {
      const answer = await extra.elicit({
        message: `Delete ${filename}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', description: 'Delete the file' } }, required: ['confirm'] },
      });
      const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
      return text(confirmed ? `Deleted ${filename}` : `Kept ${filename} (${describeAnswer(answer)})`);
    },
  );

  server.registerTool('multi_input', { description: 'Asks two questions at once', execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    const [name, confirm] = await Promise.all([
      extra.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }),
      extra.elicit({ message: 'Proceed?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }),
    ]);
    return text(`Answers: ${describeAnswer(name)}; ${describeAnswer(confirm)}`);
  });

  server.registerTool(
    'test_tool_with_task',
    {
      description: 'Asks for a user name in a Multi Round-Trip round, then continues as a task that greets that name',
      execution: { taskSupport: 'required' },
      deferTask: true,
    },
    async (_args, extra) => {
      const answer = await extra.elicit(
        { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        { inputKey: 'user_name' },
      );
      await extra.continueAsTask();
      await sleep(100, extra.signal);
      const name = answer.action === 'accept' && typeof answer.content?.name === 'string' ? answer.content.name : 'stranger';
      return text(`Hello, ${name}! (finished as a task)`);
    },
  );
}
