/**
 * The plain types of `types-latest.ts` must describe exactly what the 2025-11-25 schemas
 * accept and produce. Checked by the type checker (`tsc --noEmit` covers this file) in
 * both directions: a value of our type is a valid schema input, and a parsed value fits
 * our type (after dropping the explicit `| undefined` zod adds to optional members).
 */
import { describe, it, expect, expectTypeOf } from 'vitest';
import type * as z from 'zod/mini';
import * as V4 from './v2025-11-25.js';
import { LoggingLevel as LoggingLevelSchema } from './blocks/base.js';
import { LOGGING_LEVELS, TASK_STATUSES } from './types-latest.js';
import type * as T from './types-latest.js';

/** Removes `undefined` from optional members, recursively (zod infers `a?: X | undefined`). */
type Defined<V> = V extends readonly (infer Item)[]
  ? Defined<Item>[]
  : V extends object
    ? { [K in keyof V]: Defined<Exclude<V[K], undefined>> }
    : V;

type Output<S extends z.ZodMiniType> = Defined<z.output<S>>;
type Input<S extends z.ZodMiniType> = z.input<S>;

describe('types-latest', () => {
  describe('#types', () => {
    it('match the 2025-11-25 schemas in both directions', () => {
      expectTypeOf<T.Implementation>().toExtend<Input<typeof V4.Implementation>>();
      expectTypeOf<Output<typeof V4.Implementation>>().toExtend<T.Implementation>();
      expectTypeOf<T.ClientCapabilities>().toExtend<Input<typeof V4.ClientCapabilities>>();
      expectTypeOf<Output<typeof V4.ClientCapabilities>>().toExtend<T.ClientCapabilities>();
      expectTypeOf<T.ServerCapabilities>().toExtend<Input<typeof V4.ServerCapabilities>>();
      expectTypeOf<Output<typeof V4.ServerCapabilities>>().toExtend<T.ServerCapabilities>();
      expectTypeOf<T.InitializeRequestParams>().toExtend<Input<typeof V4.InitializeRequestParams>>();
      expectTypeOf<Output<typeof V4.InitializeRequestParams>>().toExtend<T.InitializeRequestParams>();
      expectTypeOf<T.InitializeResult>().toExtend<Input<typeof V4.InitializeResult>>();
      expectTypeOf<Output<typeof V4.InitializeResult>>().toExtend<T.InitializeResult>();

      expectTypeOf<T.Tool>().toExtend<Input<typeof V4.Tool>>();
      expectTypeOf<Output<typeof V4.Tool>>().toExtend<T.Tool>();
      expectTypeOf<T.ToolAnnotations>().toExtend<Input<typeof V4.ToolAnnotations>>();
      expectTypeOf<Output<typeof V4.ToolAnnotations>>().toExtend<T.ToolAnnotations>();
      expectTypeOf<T.CallToolRequestParams>().toExtend<Input<typeof V4.CallToolRequestParams>>();
      expectTypeOf<Output<typeof V4.CallToolRequestParams>>().toExtend<T.CallToolRequestParams>();
      expectTypeOf<T.CallToolResult>().toExtend<Input<typeof V4.CallToolResult>>();
      expectTypeOf<Output<typeof V4.CallToolResult>>().toExtend<T.CallToolResult>();
      expectTypeOf<T.ListToolsResult>().toExtend<Input<typeof V4.ListToolsResult>>();
      expectTypeOf<Output<typeof V4.ListToolsResult>>().toExtend<T.ListToolsResult>();

      expectTypeOf<T.ContentBlock>().toExtend<Input<typeof V4.ContentBlock>>();
      expectTypeOf<Output<typeof V4.ContentBlock>>().toExtend<T.ContentBlock>();
      expectTypeOf<T.ResourceLink>().toExtend<Input<typeof V4.ResourceLink>>();
      expectTypeOf<Output<typeof V4.ResourceLink>>().toExtend<T.ResourceLink>();
      expectTypeOf<T.ResourceContents>().toExtend<Input<typeof V4.AnyResourceContents>>();
      expectTypeOf<Output<typeof V4.AnyResourceContents>>().toExtend<T.ResourceContents>();

      expectTypeOf<T.Resource>().toExtend<Input<typeof V4.Resource>>();
      expectTypeOf<Output<typeof V4.Resource>>().toExtend<T.Resource>();
      expectTypeOf<T.ResourceTemplate>().toExtend<Input<typeof V4.ResourceTemplate>>();
      expectTypeOf<Output<typeof V4.ResourceTemplate>>().toExtend<T.ResourceTemplate>();
      expectTypeOf<T.ListResourcesResult>().toExtend<Input<typeof V4.ListResourcesResult>>();
      expectTypeOf<Output<typeof V4.ListResourcesResult>>().toExtend<T.ListResourcesResult>();
      expectTypeOf<T.ListResourceTemplatesResult>().toExtend<Input<typeof V4.ListResourceTemplatesResult>>();
      expectTypeOf<Output<typeof V4.ListResourceTemplatesResult>>().toExtend<T.ListResourceTemplatesResult>();
      expectTypeOf<T.ReadResourceResult>().toExtend<Input<typeof V4.ReadResourceResult>>();
      expectTypeOf<Output<typeof V4.ReadResourceResult>>().toExtend<T.ReadResourceResult>();

      expectTypeOf<T.Prompt>().toExtend<Input<typeof V4.Prompt>>();
      expectTypeOf<Output<typeof V4.Prompt>>().toExtend<T.Prompt>();
      expectTypeOf<T.PromptMessage>().toExtend<Input<typeof V4.PromptMessage>>();
      expectTypeOf<Output<typeof V4.PromptMessage>>().toExtend<T.PromptMessage>();
      expectTypeOf<T.GetPromptResult>().toExtend<Input<typeof V4.GetPromptResult>>();
      expectTypeOf<Output<typeof V4.GetPromptResult>>().toExtend<T.GetPromptResult>();
      expectTypeOf<T.ListPromptsResult>().toExtend<Input<typeof V4.ListPromptsResult>>();
      expectTypeOf<Output<typeof V4.ListPromptsResult>>().toExtend<T.ListPromptsResult>();

      expectTypeOf<T.CompleteRequestParams>().toExtend<Input<typeof V4.CompleteRequestParams>>();
      expectTypeOf<Output<typeof V4.CompleteRequestParams>>().toExtend<T.CompleteRequestParams>();
      expectTypeOf<T.CompleteResult>().toExtend<Input<typeof V4.CompleteResult>>();
      expectTypeOf<Output<typeof V4.CompleteResult>>().toExtend<T.CompleteResult>();

      expectTypeOf<T.CreateMessageRequestParams>().toExtend<Input<typeof V4.CreateMessageRequestParams>>();
      expectTypeOf<Output<typeof V4.CreateMessageRequestParams>>().toExtend<T.CreateMessageRequestParams>();
      expectTypeOf<T.CreateMessageResult>().toExtend<Input<typeof V4.CreateMessageResult>>();
      expectTypeOf<Output<typeof V4.CreateMessageResult>>().toExtend<T.CreateMessageResult>();
      expectTypeOf<T.SamplingMessage>().toExtend<Input<typeof V4.SamplingMessage>>();
      expectTypeOf<Output<typeof V4.SamplingMessage>>().toExtend<T.SamplingMessage>();

      expectTypeOf<T.ElicitRequestParams>().toExtend<Input<typeof V4.ElicitRequestParams>>();
      expectTypeOf<Output<typeof V4.ElicitRequestParams>>().toExtend<T.ElicitRequestParams>();
      expectTypeOf<T.ElicitResult>().toExtend<Input<typeof V4.ElicitResult>>();
      expectTypeOf<Output<typeof V4.ElicitResult>>().toExtend<T.ElicitResult>();

      expectTypeOf<T.Root>().toExtend<Input<typeof V4.Root>>();
      expectTypeOf<Output<typeof V4.Root>>().toExtend<T.Root>();
      expectTypeOf<T.ListRootsResult>().toExtend<Input<typeof V4.ListRootsResult>>();
      expectTypeOf<Output<typeof V4.ListRootsResult>>().toExtend<T.ListRootsResult>();

      expectTypeOf<T.Task>().toExtend<Input<typeof V4.Task>>();
      expectTypeOf<Output<typeof V4.Task>>().toExtend<T.Task>();
      expectTypeOf<T.CreateTaskResult>().toExtend<Input<typeof V4.CreateTaskResult>>();
      expectTypeOf<Output<typeof V4.CreateTaskResult>>().toExtend<T.CreateTaskResult>();
      expectTypeOf<T.GetTaskResult>().toExtend<Input<typeof V4.TaskResult>>();
      expectTypeOf<Output<typeof V4.TaskResult>>().toExtend<T.GetTaskResult>();
      expectTypeOf<T.ListTasksResult>().toExtend<Input<typeof V4.ListTasksResult>>();
      expectTypeOf<Output<typeof V4.ListTasksResult>>().toExtend<T.ListTasksResult>();

      expectTypeOf<T.ProgressNotificationParams>().toExtend<Input<typeof V4.ProgressNotificationParams>>();
      expectTypeOf<Output<typeof V4.ProgressNotificationParams>>().toExtend<T.ProgressNotificationParams>();
      expectTypeOf<T.CancelledNotificationParams>().toExtend<Input<typeof V4.CancelledNotificationParams>>();
      expectTypeOf<Output<typeof V4.CancelledNotificationParams>>().toExtend<T.CancelledNotificationParams>();
      expectTypeOf<T.LoggingMessageNotificationParams>().toExtend<Input<typeof V4.LoggingMessageNotificationParams>>();
      expectTypeOf<Output<typeof V4.LoggingMessageNotificationParams>>().toExtend<T.LoggingMessageNotificationParams>();
      expectTypeOf<T.LoggingLevel>().toEqualTypeOf<z.output<typeof LoggingLevelSchema>>();
    });

    it('are not so loose that anything fits', () => {
      expectTypeOf<{ name: string }>().not.toExtend<T.Tool>();
      expectTypeOf<{ type: 'video'; data: string }>().not.toExtend<T.ContentBlock>();
      expectTypeOf<{ mode: 'url'; message: string }>().not.toExtend<T.ElicitRequestParams>();
    });
  });

  describe('#LOGGING_LEVELS', () => {
    it('lists the levels from least to most severe', () => {
      expect(LOGGING_LEVELS).toEqual(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
    });

    it('is exactly the set the logging schema accepts', () => {
      for (const level of LOGGING_LEVELS) expect(LoggingLevelSchema.safeParse(level).success).toBe(true);
      expect(LoggingLevelSchema.safeParse('fatal').success).toBe(false);
    });
  });

  describe('#TASK_STATUSES', () => {
    it('lists the task statuses the schema accepts', () => {
      expect(TASK_STATUSES).toEqual(['working', 'input_required', 'completed', 'failed', 'cancelled']);
      for (const status of TASK_STATUSES) expect(V4.TaskStatus.safeParse(status).success).toBe(true);
    });
  });

  describe('#values', () => {
    it('a value built with the plain types passes the schema', () => {
      const tool: T.Tool = {
        name: 'get_weather',
        title: 'Weather',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execution: { taskSupport: 'optional' },
        annotations: { readOnlyHint: true },
      };
      const result: T.CallToolResult = {
        content: [
          { type: 'text', text: 'sunny' },
          { type: 'resource_link', uri: 'file:///w', name: 'w' },
        ],
        structuredContent: { sky: 'clear' },
      };
      const elicit: T.ElicitRequestParams = { mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://example.com' };
      expect(V4.Tool.safeParse(tool).success).toBe(true);
      expect(V4.CallToolResult.safeParse(result).success).toBe(true);
      expect(V4.ElicitRequestParams.safeParse(elicit).success).toBe(true);
    });
  });
});
