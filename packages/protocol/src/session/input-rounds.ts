/**
 * Multi Round-Trip Requests on the requesting side (2026-07-28+, MCP 2026-07-28
 * basic/patterns/mrtr). A modern server
 * that needs sampling, elicitation or roots answers `tools/call`, `prompts/get` or
 * `resources/read` with `resultType: "input_required"`; the client answers every input
 * request and sends the request again with a new id. This module holds the pure parts: what
 * a result means, how the answers are gathered, and the params of the retry. The rounds
 * themselves (ledger states, ids, timers) run in `outbound.ts`.
 */
import { InvalidResultError, JsonRpcError, NoReturnChannelError } from '../errors/errors.js';
import { ErrorCode, isJsonObject, type JsonObject, type RequestId } from '../jsonrpc/messages.js';
import type { Revision } from '../revisions/types.js';
import type { RequestContext, RequestHandler } from './options.js';

/** The only methods whose result may be an `InputRequiredResult` (MCP 2026-07-28 basic/patterns/mrtr). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Default bound on the rounds of one request (`SessionOptions.maxInputRounds`). */
export const DEFAULT_MAX_INPUT_ROUNDS = 8;

/** Answers one input request (`sampling/createMessage`, `elicitation/create`, `roots/list`). */
export type InputAnswerer = (method: string, params: JsonObject, context: RequestContext) => Promise<JsonObject>;

/**
 * Reads `resultType` where the revision has it (MCP 2026-07-28 basic/index §ResultType): absent
 * means `complete` (older
 * servers), `input_required` is a round where the revision has MRTR, anything else is invalid.
 * Returns the result to validate (with `resultType` filled in) or the error to settle with.
 */
export function readResultType(revision: Revision, method: string, result: JsonObject): JsonObject | Error {
  if (!revision.features.resultType) return result;
  const type = result.resultType;
  if (type === undefined) return { ...result, resultType: 'complete' };
  if (type === 'complete') return result;
  if (type === 'input_required' && revision.features.multiRoundTrip && INPUT_REQUIRED_METHODS.has(method)) return result;
  // The tasks extension (SEP-2663): a server may answer tools/call with a CreateTaskResult; the
  // caller drives the task.
  if (type === 'task' && method === 'tools/call' && revision.requests['tasks/get'] !== undefined) return result;
  return new InvalidResultError(`Invalid result for ${method}: resultType ${JSON.stringify(type)} is not one this client accepts here`);
}

/** True when a validated result asks for another round. */
export function isInputRequired(revision: Revision, result: JsonObject): boolean {
  return revision.features.multiRoundTrip && result.resultType === 'input_required';
}

/**
 * Answers every entry of `inputRequests` — one after the other (a person may be asked), or all
 * at once when `concurrent` — and returns the answers keyed like the requests. The first
 * failure rejects: the round is abandoned and the request fails with it (the server is never
 * told, MCP 2026-07-28 basic/patterns/mrtr).
 */
export async function gatherInputResponses(
  inputRequests: JsonObject,
  answer: InputAnswerer,
  contextFor: (method: string, key: string) => RequestContext,
  concurrent = false,
): Promise<JsonObject> {
  const entries = Object.entries(inputRequests).map(([key, request]) => {
    if (!isJsonObject(request) || typeof request.method !== 'string') throw new InvalidResultError(`Input request ${JSON.stringify(key)} has no method`);
    const params = isJsonObject(request.params) ? request.params : {};
    return { key, run: () => answer(request.method as string, params, contextFor(request.method as string, key)) };
  });
  // Keys are the server's: without a prototype, `__proto__` is a key like any other.
  const responses = Object.create(null) as JsonObject;
  if (concurrent) {
    const answers = await Promise.all(entries.map(({ run }) => run()));
    entries.forEach(({ key }, index) => (responses[key] = answers[index] as JsonObject));
    return responses;
  }
  for (const { key, run } of entries) responses[key] = await run();
  return responses;
}

/**
 * The params of the retry: the original params (without a previous round's answers), the
 * answers keyed like the input requests when there were any, and `requestState` exactly as
 * the server sent it — never one the server did not send.
 */
export function retryParams(original: JsonObject | undefined, result: JsonObject, responses: JsonObject | undefined): JsonObject {
  const { inputResponses: _answers, requestState: _state, ...rest } = original ?? {};
  const params: JsonObject = { ...rest };
  if (responses !== undefined) params.inputResponses = responses;
  if (typeof result.requestState === 'string') params.requestState = result.requestState;
  return params;
}

/**
 * The context the handlers of input requests receive: the same handlers serve a legacy
 * server's requests, so they get the same shape. There is no peer request behind it, so
 * it cannot report progress or send messages of its own.
 */
export function inputRequestContext(requestId: RequestId, method: string, protocolVersion: string, signal: AbortSignal, inputKey?: string): RequestContext {
  const noChannel = (): Promise<never> => Promise.reject(new NoReturnChannelError(`The handler of a Multi Round-Trip ${method} input request cannot send messages of its own`));
  return {
    requestId,
    method,
    signal,
    meta: undefined,
    authInfo: undefined,
    transportContext: undefined,
    traceContext: undefined,
    requester: undefined,
    protocolVersion,
    inputKey,
    sendProgress: () => Promise.resolve(),
    retainProgress: () => undefined,
    sendNotification: noChannel,
    sendRequest: noChannel,
  };
}

/**
 * An input request goes to `handler`, the one registered for its method — the handler a
 * legacy server's request of the same method reaches; -32601 when there is none.
 */
export async function answerInput(handler: RequestHandler | undefined, method: string, params: JsonObject, context: RequestContext): Promise<JsonObject> {
  if (handler === undefined) throw new JsonRpcError(ErrorCode.MethodNotFound, `The server asked for ${method} input, and this client has no handler for it`);
  return handler(params, context);
}
