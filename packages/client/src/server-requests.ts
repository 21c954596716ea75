/**
 * The requests a server sends a client — `sampling/createMessage`, `elicitation/create`,
 * `roots/list` — and the rules the client applies around the user's handlers:
 * - the session runner already answers -32601 when the capability was not declared, or
 *   the method does not exist in the negotiated revision;
 * - a declared capability without a handler is answered -32601 too;
 * - an elicitation in an undeclared mode, or tool-enabled sampling without `sampling.tools`,
 *   is answered -32602 (MCP 2025-11-25 basic/lifecycle, MCP 2025-11-25 client/elicitation);
 * - accepted forms get their schema defaults (SEP-1034);
 * - what a handler returns is checked against the negotiated revision's result schema, so
 *   a bug in the application is reported to the server as -32603, not as a malformed reply.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '@statemcp/protocol';
import { getRevision } from '@statemcp/protocol/internal';
import { applyFormDefaults, assertDeclaredMode } from './elicitation.js';
import type { ImpliedFeatures } from './capabilities.js';
import type { ElicitationHandler, ElicitationSettings, HandlerContext, SamplingHandler, SamplingSettings } from './options.js';
import type { ClientCapabilities, CreateMessageRequestParams, ElicitRequestParams, Root } from './types.js';

const MAX_REPORTED_ISSUES = 3;

/** The user's handlers for server requests, and the roots to answer with. */
export class ServerRequestHandlers {
  sampling: { readonly handler: SamplingHandler; readonly settings: SamplingSettings } | undefined;
  elicitation: { readonly handler: ElicitationHandler; readonly settings: ElicitationSettings } | undefined;
  roots: readonly Root[] | undefined;

  /** The features these handlers imply for the capabilities declared at connect. */
  implied(): ImpliedFeatures {
    return { sampling: this.sampling?.settings, elicitation: this.elicitation?.settings, roots: this.roots !== undefined };
  }

  /** The capabilities the client sent in `initialize`, read at each request. */
  readonly #declared: () => ClientCapabilities;

  constructor(declared: () => ClientCapabilities) {
    this.#declared = declared;
  }

  /**
   * Answers one server request with the user's handler, under the rules above. Also how the
   * `inputRequests` of a task (tasks extension) are answered: the same handlers, the same checks.
   */
  async answer(method: string, params: JsonObject, context: HandlerContext): Promise<JsonObject> {
    if (method === 'sampling/createMessage') {
      const sampling = this.sampling ?? noHandler('sampling/createMessage');
      const request = params as CreateMessageRequestParams;
      if ((request.tools !== undefined || request.toolChoice !== undefined) && this.#declared().sampling?.tools === undefined) {
        throw new JsonRpcError(ErrorCode.InvalidParams, 'This client did not declare sampling.tools; tools and toolChoice are not allowed');
      }
      return checked('sampling/createMessage', await sampling.handler(request, context), context);
    }
    if (method === 'elicitation/create') {
      const elicitation = this.elicitation ?? noHandler('elicitation/create');
      const request = params as ElicitRequestParams;
      assertDeclaredMode(request, this.#declared());
      let result = await elicitation.handler(request, context);
      if (elicitation.settings.applyDefaults !== false) result = applyFormDefaults(request, result);
      return checked('elicitation/create', result, context);
    }
    if (method === 'roots/list') {
      const roots = this.roots ?? noHandler('roots/list');
      return checked('roots/list', { roots: roots.map((root) => ({ ...root })) }, context);
    }
    return noHandler(method);
  }
}

function noHandler(method: string): never {
  throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (no handler is registered on this client)`);
}

/** Validates a handler's result against the negotiated revision; -32603 when it does not fit. */
function checked(method: string, result: object, context: HandlerContext): JsonObject {
  const spec = getRevision(context.protocolVersion)?.requests[method];
  if (spec === undefined) return result as JsonObject;
  const parsed = spec.result.safeParse(result);
  if (parsed.success) return parsed.data as JsonObject;
  const issues = firstBranch(parsed.error.issues)
    .slice(0, MAX_REPORTED_ISSUES)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  throw new JsonRpcError(ErrorCode.InternalError, `The client's ${method} handler returned an invalid result: ${issues}`);
}

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
  readonly errors?: readonly (readonly Issue[])[];
}

/**
 * Results of task-augmentable methods are a union (the plain result or a task); when neither
 * branch fits, report why the plain result (the first branch) did not, which is what a
 * handler meant to return.
 */
function firstBranch(issues: readonly Issue[]): readonly Issue[] {
  const [only] = issues;
  if (issues.length === 1 && only?.code === 'invalid_union' && only.errors?.[0] !== undefined) return firstBranch(only.errors[0]);
  return issues;
}
