/**
 * Options of the {@link Client}, of its calls, and the types of the handlers it runs for
 * requests that the server sends (sampling, elicitation).
 */
import type { Clock, CustomSchema, JsonObject, CloseInfo, EraPreference, InspectListener, JsonSchemaValidator, ProgressUpdate, RequestContext, TraceContext, TraceContextProvider } from '@statemcp/protocol';
import type { ToolTask } from './tool-task.js';
import type { ListChangedOptions } from './list-refresh.js';
import type { ResponseCacheOptions } from './response-cache.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Prompt,
  Resource,
  Root,
  Tool,
} from './types.js';

/** Options of `new Client(clientInfo, options)`. */
export interface ClientOptions {
  /**
   * Capabilities to declare in `initialize`, besides those implied by registered handlers
   * (`onSampling` → `sampling`, `onElicitation` → `elicitation`, `setRoots` / `roots` →
   * `roots.listChanged`). Use it for sub-flags such as `sampling.context` and `experimental`.
   */
  readonly capabilities?: ClientCapabilities & { readonly extensions?: { readonly [id: string]: JsonObject } };
  /** Handles `sampling/createMessage`; same as calling `client.onSampling(handler)` before connecting. */
  readonly onSampling?: SamplingHandler;
  /** Handles `elicitation/create`; same as calling `client.onElicitation(handler)` before connecting. */
  readonly onElicitation?: ElicitationHandler;
  /** Roots answered to `roots/list`; same as calling `client.setRoots(roots)` before connecting. */
  readonly roots?: readonly Root[];
  /** Timeout of every request unless a call overrides it, ms (default 60 000). */
  readonly defaultTimeoutMs?: number;
  /** Hard maximum of every request even while progress keeps arriving, ms (default: none). */
  readonly maxTotalTimeoutMs?: number;
  /** Whether a progress notification restarts a request's timeout (default true). */
  readonly resetTimeoutOnProgress?: boolean;
  /** How long `close()` may wait for the transport before closing it forcefully, ms (default 10 000). */
  readonly closeDeadlineMs?: number;
  /** Timer source (default: the system clock). Tests pass a `SimulatedClock`. */
  readonly clock?: Clock;
  /** Receives every inspection event: connection and request transitions, messages in and out. */
  readonly inspect?: InspectListener;
  /**
   * Refuse calls the server's declared capabilities do not allow, with
   * `CapabilityNotSupportedError`, before anything is sent (default true).
   */
  readonly strictCapabilities?: boolean;
  /**
   * Which protocol era to speak (MCP 2026-07-28 basic/versioning §Backward Compatibility): `auto`
   * (default) discovers with
   * `server/discover` at 2026-07-28 and falls back to the `initialize` handshake on a legacy
   * server (no discovery when `protocolVersion` or `supportedVersions` pin the legacy era);
   * `modern` never falls back; `legacy` runs the handshake only.
   */
  readonly era?: EraPreference;
  /**
   * Protocol versions this client speaks (default: every legacy revision, plus 2026-07-28 unless
   * `era` is `legacy`).
   */
  readonly supportedVersions?: readonly string[];
  /** The version to propose in `initialize` (default: the newest of `supportedVersions`). */
  readonly protocolVersion?: string;
  /**
   * Check a tool's `structuredContent` against the `outputSchema` seen in a listing
   * (default true). A call can override it.
   */
  readonly validateToolOutput?: boolean;
  /**
   * The JSON Schema engine that checks tool output (default: the built-in
   * `defaultJsonSchemaValidator`; `createAjvValidator()` from `@statemcp/protocol/ajv` for Ajv
   * with formats).
   */
  readonly jsonSchemaValidator?: JsonSchemaValidator;
  /** Called once each time a connection reaches Terminated. */
  readonly onclose?: (info: CloseInfo) => void;
  /**
   * Refetch a list whenever the server reports it changed, and hand over the new full list:
   * after the notifications stop for `debounceMs` (on `clock`), every page is fetched again
   * (bounded by `maxPages`) and `onChanged` receives the items.
   */
  readonly listChanged?: ListChangedHandlers;
  /**
   * Supplies the W3C trace context (`traceparent`, `tracestate`, `baggage`) of each request that
   * does not carry its own — the hook for the active OpenTelemetry span. Validated; invalid
   * parts are dropped, never sent.
   */
  readonly traceContext?: TraceContextProvider;
  /**
   * Modern era: how many `input_required` rounds one call may take before it rejects with
   * `InputRoundsExceededError` (default 8).
   */
  readonly maxInputRounds?: number;
  /**
   * Modern era: answer the input requests of one `input_required` round all at once instead of
   * one after the other (default `false`: a person may be asked). A gateway sets it so that a
   * round of its upstream reaches its own caller as one round.
   */
  readonly concurrentInputs?: boolean;
  /**
   * Modern era: the capabilities the request being sent states in its `_meta`
   * (`io.modelcontextprotocol/clientCapabilities`, MCP 2026-07-28, Lifecycle) instead of the
   * declared ones, when it returns some. Called as each request is written, in its async
   * context: a gateway states the capabilities of the caller it forwards for. Undefined: the
   * declared capabilities (also what checks the server's requests outside such a context).
   */
  readonly requestCapabilities?: () => ClientCapabilities | undefined;
  /**
   * The response cache of the 2026-07-28 era (MCP 2026-07-28 basic/utilities/caching): a list page
   * or `resources/read`
   * result the server marked with `ttlMs` > 0 is served from memory while fresh; `private`
   * results only under the same `authContext`; change notifications drop what they make stale.
   * Bounded by `maxEntries` / `maxBytes`; `false` turns it off. Legacy results are never cached.
   */
  readonly cache?: false | ResponseCacheOptions;
  /**
   * Modern era: how long `server/discover` may take before the server is taken for a legacy one,
   * ms (default 10 000). Not applied on a transport whose peer answers or closes (stdio, WebSocket): there
   * discovery waits for the answer, bounded by the connect timeout.
   */
  readonly discoveryTimeoutMs?: number;
  /**
   * 2026-07-28 era: let the client open ONE `subscriptions/listen` stream itself for the lists
   * that have `on…ListChanged` listeners or `listChanged` auto-refresh and whose `listChanged`
   * the server advertises (default true). It opens after `connect()`'s discovery (which resolves
   * once the server acknowledged it), widens when a listener for another list is added later,
   * resumes after a lost connection and closes with `client.close()`. `false`: no stream is
   * opened; the application calls `client.listen(...)` itself. The legacy era needs none.
   */
  readonly autoListen?: boolean;
}

/** The lists `ClientOptions.listChanged` can keep fresh, each with its callback and debounce. */
export interface ListChangedHandlers {
  /** On `notifications/tools/list_changed`: refetch `tools/list`. */
  readonly tools?: ListChangedOptions<Tool>;
  /** On `notifications/prompts/list_changed`: refetch `prompts/list`. */
  readonly prompts?: ListChangedOptions<Prompt>;
  /** On `notifications/resources/list_changed`: refetch `resources/list`. */
  readonly resources?: ListChangedOptions<Resource>;
}

/** Options of one call (`listTools`, `callTool`, `readResource`, …). */
export interface CallOptions {
  /** Timeout of this call, ms (default: the client's `defaultTimeoutMs`). */
  readonly timeoutMs?: number;
  /** Hard maximum of this call even while progress arrives, ms. */
  readonly maxTotalTimeoutMs?: number;
  /** Whether progress restarts this call's timeout (default: the client's setting). */
  readonly resetTimeoutOnProgress?: boolean;
  /** Aborting it cancels the call: a `notifications/cancelled` goes out and the call rejects with `RequestCancelledError`. */
  readonly signal?: AbortSignal;
  /** Receives the server's progress notifications; a progress token is generated when set. */
  readonly onProgress?: (progress: ProgressUpdate) => void;
  /** The W3C trace context to carry in this call's `_meta` (wins over the client's `traceContext` provider). */
  readonly traceContext?: TraceContext;
  /** `false`: ask the server even when the response cache holds a fresh answer (the answer still refreshes it). */
  readonly cache?: boolean;
}

/** Options of the page iterators (`tools()`, …) and the collect-all calls (`listAllTools()`, …). */
export interface ListOptions extends CallOptions {
  /**
   * The most pages to fetch (a positive integer). Past it, with the server still offering a
   * `nextCursor`, the listing fails with `TooManyPagesError`. Default: no bound for the
   * iterators, 100 for the collect-all calls. Each page is one call with this call's options.
   */
  readonly maxPages?: number;
}

/** Options of `callTool`. */
export interface CallToolOptions extends CallOptions {
  /** Check `structuredContent` against the tool's `outputSchema` (default: the client's `validateToolOutput`). */
  readonly validateOutput?: boolean;
  /**
   * Called with the task handle when the server runs the call as a task (tasks extension,
   * 2026-07-28): keep `taskId` to resume elsewhere, cancel it, or watch its statuses while
   * `callTool` waits for the final result.
   */
  readonly onTask?: (task: ToolTask) => void;
  /**
   * List the tools first (once) when no listing since the last `tools/list_changed` showed this
   * tool, so its result is checked against the `outputSchema` the server declares even when
   * nothing listed the tools before. Implied by `outputSchema`; the typed client sets it.
   */
  readonly ensureOutputSchema?: boolean;
}

/** Options of `callTool` with a schema of the `structuredContent` expected (a zod schema or any Standard Schema). */
export interface TypedCallToolOptions<Out> extends CallToolOptions {
  /** Checked after the server's declared `outputSchema`; its output is the `structuredContent` returned. */
  readonly outputSchema: CustomSchema<Out>;
}

/** Options of `connect`. */
export interface ConnectOptions {
  /**
   * Timeout of the whole connect, ms: discovery, the fallback handshake and, in the 2026-07-28
   * era, the wait for the list-change stream share it; past it `connect()` rejects with a
   * `RequestTimeoutError`. An authorization pause restarts it in full. Without it each request
   * has its own: `discoveryTimeoutMs` for discovery, the client's `defaultTimeoutMs` for `initialize`.
   */
  readonly timeoutMs?: number;
  /** Aborting it abandons the handshake and closes the connection (`initialize` itself is never cancelled on the wire). */
  readonly signal?: AbortSignal;
}

/** What a handler for a server request receives besides its params (from the session runner). */
export type HandlerContext = RequestContext;

/**
 * Answers `sampling/createMessage`: run the model and return its message. Throw a
 * `JsonRpcError` to answer with a specific error (e.g. code -1 when the user declined).
 */
export type SamplingHandler = (params: CreateMessageRequestParams, context: HandlerContext) => CreateMessageResult | Promise<CreateMessageResult>;

/** Which sampling sub-capabilities to declare with `onSampling`. */
export interface SamplingSettings {
  /** Declare `sampling.tools` (2025-11-25): the server may offer tools to the model. */
  readonly tools?: boolean;
  /** Declare `sampling.context` (2025-11-25): the server may ask to include context. */
  readonly context?: boolean;
}

/**
 * Answers `elicitation/create`: ask the user and return `accept` (with `content` in form
 * mode), `decline` or `cancel`. In form mode the client fills in the `default` of every
 * field the handler left out (unless `applyDefaults` is false).
 */
export type ElicitationHandler = (params: ElicitRequestParams, context: HandlerContext) => ElicitResult | Promise<ElicitResult>;

/** Which elicitation modes to declare with `onElicitation`, and how to post-process answers. */
export interface ElicitationSettings {
  /** Declare form mode (default true). */
  readonly form?: boolean;
  /** Declare URL mode (2025-11-25; default false). */
  readonly url?: boolean;
  /** Fill in schema defaults for fields missing from an accepted form (default true). */
  readonly applyDefaults?: boolean;
}
