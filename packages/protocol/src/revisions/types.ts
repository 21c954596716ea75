/**
 * The shape every protocol revision module provides to the registry. A revision is data:
 * which methods and notifications exist, who may send them, and the zod schemas of their
 * params and results. The session runner validates inbound params and inbound results
 * once, against the negotiated revision (architecture §8). Adding a revision means adding
 * a module and a registry entry; no other revision changes.
 */
import type { z } from 'zod';
import type { ProtocolEra } from '../versions.js';

/** Who may send a message. */
export type Direction = 'clientToServer' | 'serverToClient' | 'both';

export interface RequestSpec {
  readonly direction: Direction;
  /** Schema of `params` (an object; `{}` when the method takes none). */
  readonly params: z.ZodType;
  /** Schema of the `result`. */
  readonly result: z.ZodType;
}

export interface NotificationSpec {
  readonly direction: Direction;
  readonly params: z.ZodType;
}

export interface Revision {
  readonly version: string;
  readonly era: ProtocolEra;
  /** Whether JSON-RPC batches must be accepted (2025-03-26 only). */
  readonly batching: boolean;
  readonly requests: Readonly<Record<string, RequestSpec>>;
  readonly notifications: Readonly<Record<string, NotificationSpec>>;
  /** Schemas of shared building blocks, for role layers (capabilities, tools, content, …). */
  readonly schemas: RevisionSchemas;
}

/** Named schemas every legacy revision exposes (fields absent in a revision are omitted by its schema). */
export interface RevisionSchemas {
  readonly Implementation: z.ZodType;
  readonly ClientCapabilities: z.ZodType;
  readonly ServerCapabilities: z.ZodType;
  readonly InitializeRequestParams: z.ZodType;
  readonly InitializeResult: z.ZodType;
  readonly Tool: z.ZodType;
  readonly CallToolResult: z.ZodType;
  readonly ContentBlock: z.ZodType;
  readonly Resource: z.ZodType;
  readonly ResourceTemplate: z.ZodType;
  readonly Prompt: z.ZodType;
  readonly PromptMessage: z.ZodType;
  readonly SamplingMessage: z.ZodType;
  /** Text or blob contents of a resource (`resources/read`, embedded resources). */
  readonly ResourceContents: z.ZodType;
  readonly Root: z.ZodType;
  readonly LoggingLevel: z.ZodType;
  /** One JSON-RPC message of any kind; known methods also have their params checked. */
  readonly JsonRpcMessage: z.ZodType;
  readonly JsonRpcRequest: z.ZodType;
  readonly JsonRpcNotification: z.ZodType;
  readonly JsonRpcResultResponse: z.ZodType;
  readonly JsonRpcErrorResponse: z.ZodType;
  /** A JSON-RPC batch (an array of requests/notifications, or of responses). 2025-03-26 only. */
  readonly JsonRpcBatch?: z.ZodType;
  /** A task's state. 2025-11-25 only. */
  readonly Task?: z.ZodType;
  /** The result of a task-augmented request. 2025-11-25 only. */
  readonly CreateTaskResult?: z.ZodType;
}
