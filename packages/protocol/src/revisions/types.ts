/**
 * The shape every protocol revision module provides to the registry. A revision is data:
 * which methods and notifications exist, who may send them, and the zod schemas of their
 * params and results. The session runner validates inbound params and inbound results
 * once, against the negotiated revision. Adding a revision means adding
 * a module and a registry entry; no other revision changes.
 */
import type * as z from 'zod/mini';
import type { ProtocolEra } from '../versions.js';

/** Who may send a message. */
export type Direction = 'clientToServer' | 'serverToClient' | 'both';

/** A request method of a revision: who may send it, and the schemas of its params and result. */
export interface RequestSpec {
  readonly direction: Direction;
  /** Schema of `params` (an object; `{}` when the method takes none). */
  readonly params: z.ZodMiniType;
  /** Schema of the `result`. */
  readonly result: z.ZodMiniType;
}

/** A notification method of a revision: who may send it, and the schema of its params. */
export interface NotificationSpec {
  readonly direction: Direction;
  readonly params: z.ZodMiniType;
}

/** One protocol revision as data: its version, era, methods with their schemas, and every version-dependent feature. */
export interface Revision {
  readonly version: string;
  readonly era: ProtocolEra;
  /** Every version-dependent rule, as data: role layers and transports read these, never compare versions. */
  readonly features: RevisionFeatures;
  readonly requests: Readonly<Record<string, RequestSpec>>;
  readonly notifications: Readonly<Record<string, NotificationSpec>>;
  /** Schemas of shared building blocks, for role layers (capabilities, tools, content, …). */
  readonly schemas: RevisionSchemas;
}

/**
 * The version-dependent rules of one revision. Each rule is decided here and nowhere else:
 * code asks `revision.features.x` (or {@link hasFeature}), never `version >= '…'`.
 */
export interface RevisionFeatures {
  /**
   * JSON-RPC batches MUST be accepted, and `initialize` must not be in one (2025-03-26 only; MCP
   * 2025-03-26 basic §Batching, MCP 2025-06-18 changelog (batching removed)).
   */
  readonly batching: boolean;
  /** Tool annotations and audio content (2025-03-26+). */
  readonly toolAnnotations: boolean;
  /** `message` on `notifications/progress` (2025-03-26+). */
  readonly progressMessage: boolean;
  /** The `completions` server capability (2025-03-26+). */
  readonly completionsCapability: boolean;
  /** `title` on implementations, tools, resources and prompts; `_meta` on data objects (2025-06-18+). */
  readonly title: boolean;
  /** Tool `outputSchema` and `structuredContent` (2025-06-18+). */
  readonly structuredOutput: boolean;
  /** Form elicitation, `elicitation/create` (2025-06-18+). */
  readonly elicitation: boolean;
  /** Invalid tool arguments are a tool execution error (`isError: true`), not -32602 (SEP-1303, 2025-11-25+). */
  readonly validationAsToolError: boolean;
  /** `icons`, `description` and `websiteUrl` on implementations; tool `execution` (2025-11-25+). */
  readonly icons: boolean;
  /** Core task-augmented requests (2025-11-25 only; later revisions move tasks into an extension). */
  readonly tasks: boolean;
  /** URL-mode elicitation (2025-11-25+). */
  readonly urlElicitation: boolean;
  /** Tools in `sampling/createMessage` (2025-11-25+). */
  readonly samplingTools: boolean;
  /**
   * Which `_meta` key prefixes are reserved (MCP 2025-11-25 basic/index §_meta): `second-label`
   * when the second label is
   * `modelcontextprotocol` or `mcp` (2025-11-25+), `any-label` when any label but the last is.
   */
  readonly reservedMetaPrefix: 'second-label' | 'any-label';
  /** Streamable HTTP: the client sends `MCP-Protocol-Version` after the handshake (2025-06-18+). */
  readonly protocolVersionHeader: boolean;
  /** Streamable HTTP: SSE streams open with a priming event (an id, no data) for resumption (2025-11-25+). */
  readonly ssePriming: boolean;
  /**
   * An `initialize` / `notifications/initialized` handshake opens a connection (legacy only; MCP
   * 2025-11-25 basic/lifecycle).
   */
  readonly handshake: boolean;
  /** The `ping` request exists (legacy only; removed in 2026-07-28, MCP 2025-11-25 basic/utilities/ping). */
  readonly ping: boolean;
  /**
   * Servers may send requests to clients (legacy only; 2026-07-28 uses MRTR instead, MCP
   * 2025-11-25 basic/index §Messages).
   */
  readonly serverRequests: boolean;
  /**
   * Every request carries its protocol version and client capabilities in `params._meta`
   * (2026-07-28+, MCP 2026-07-28 basic/index §_meta).
   */
  readonly perRequestMeta: boolean;
  /** Every result carries `resultType` (2026-07-28+, MCP 2026-07-28 basic/index §ResultType). */
  readonly resultType: boolean;
  /**
   * Multi Round-Trip Requests: `InputRequiredResult` with `inputRequests` / `requestState`
   * (2026-07-28+, MCP 2026-07-28 basic/patterns/mrtr).
   */
  readonly multiRoundTrip: boolean;
  /**
   * List and read results carry `ttlMs` and `cacheScope` (2026-07-28+, MCP 2026-07-28
   * basic/utilities/caching).
   */
  readonly cacheableResults: boolean;
  /**
   * Change notifications only on `subscriptions/listen` streams, tagged with `subscriptionId`
   * (2026-07-28+, MCP 2026-07-28 basic/patterns/subscriptions).
   */
  readonly listenSubscriptions: boolean;
  /**
   * Streamable HTTP: `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` routing headers (2026-07-28+, MCP
   * 2026-07-28 basic/transports/streamable-http).
   */
  readonly routingHeaders: boolean;
  /** The `extensions` capability on clients and servers (2026-07-28+, MCP 2026-07-28 basic/versioning). */
  readonly extensions: boolean;
  /**
   * The error code of `resources/read` for an unknown URI: -32002 (legacy) or -32602 with
   * `data.uri` (2026-07-28+, MCP 2026-07-28 basic/index §Error Codes).
   */
  readonly resourceNotFoundCode: -32002 | -32602;
}

/**
 * Named schemas every revision exposes (fields absent in a revision are omitted by its schema).
 * A modern revision has no handshake: its `InitializeRequestParams` and `InitializeResult`
 * accept nothing.
 */
export interface RevisionSchemas {
  readonly Implementation: z.ZodMiniType;
  readonly ClientCapabilities: z.ZodMiniType;
  readonly ServerCapabilities: z.ZodMiniType;
  readonly InitializeRequestParams: z.ZodMiniType;
  readonly InitializeResult: z.ZodMiniType;
  readonly Tool: z.ZodMiniType;
  readonly CallToolResult: z.ZodMiniType;
  readonly ContentBlock: z.ZodMiniType;
  readonly Resource: z.ZodMiniType;
  readonly ResourceTemplate: z.ZodMiniType;
  readonly Prompt: z.ZodMiniType;
  readonly PromptMessage: z.ZodMiniType;
  readonly SamplingMessage: z.ZodMiniType;
  /** Text or blob contents of a resource (`resources/read`, embedded resources). */
  readonly ResourceContents: z.ZodMiniType;
  readonly Root: z.ZodMiniType;
  readonly LoggingLevel: z.ZodMiniType;
  /** One JSON-RPC message of any kind; known methods also have their params checked. */
  readonly JsonRpcMessage: z.ZodMiniType;
  readonly JsonRpcRequest: z.ZodMiniType;
  readonly JsonRpcNotification: z.ZodMiniType;
  readonly JsonRpcResultResponse: z.ZodMiniType;
  readonly JsonRpcErrorResponse: z.ZodMiniType;
  /** A JSON-RPC batch (an array of requests/notifications, or of responses). 2025-03-26 only. */
  readonly JsonRpcBatch?: z.ZodMiniType;
  /** A task's state. 2025-11-25 only. */
  readonly Task?: z.ZodMiniType;
  /** The result of a task-augmented request. 2025-11-25 only. */
  readonly CreateTaskResult?: z.ZodMiniType;
  /** The required per-request `_meta` (`io.modelcontextprotocol/protocolVersion`, …). Modern only. */
  readonly RequestMeta?: z.ZodMiniType;
  /** The answer of `server/discover`. Modern only. */
  readonly DiscoverResult?: z.ZodMiniType;
  /** A Multi Round-Trip answer (`resultType: "input_required"`). Modern only. */
  readonly InputRequiredResult?: z.ZodMiniType;
  /** A final result with `ttlMs` and `cacheScope`. Modern only. */
  readonly CacheableResult?: z.ZodMiniType;
  /** The `notifications` filter of `subscriptions/listen`. Modern only. */
  readonly SubscriptionFilter?: z.ZodMiniType;
}
