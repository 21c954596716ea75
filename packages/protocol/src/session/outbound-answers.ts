/**
 * What the peer sends back for this side's requests: results (validated against the revision
 * in force, or the caller's custom schema), error responses, `notifications/progress` and the
 * terminal `notifications/tasks/status` that ends a task's retained progress. Every request
 * settles in the ledger's one `settle()`; this module decides with what.
 */
import { InvalidResultError, JsonRpcError } from '../errors/errors.js';
import { isJsonObject, type JsonObject, type JsonRpcErrorResponse, type RequestId } from '../jsonrpc/messages.js';
import { validateCustom } from './custom-methods.js';
import { isInputRequired, readResultType } from './input-rounds.js';
import type { OutboundRecord, ProgressUpdate } from './ledger.js';
import { requestSpec } from './method-policy.js';
import type { OutboundHost } from './outbound.js';
import type { InputRoundTrips } from './outbound-rounds.js';
import type { RequestTimeouts } from './outbound-timeouts.js';
import { PASS, verdictOf } from './schema-verdict.js';
import { formatIssues } from './validation.js';

const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** What the answers read of their session. */
type AnswersHost = Pick<OutboundHost, 'ledger' | 'observer' | 'revision'>;

export class OutboundAnswers {
  readonly #host: AnswersHost;
  readonly #timeouts: RequestTimeouts;
  readonly #rounds: InputRoundTrips;

  constructor(host: AnswersHost, timeouts: RequestTimeouts, rounds: InputRoundTrips) {
    this.#host = host;
    this.#timeouts = timeouts;
    this.#rounds = rounds;
  }

  /** A result response to request `id` (`resultOf` in `jsonrpc/messages.ts` read it). */
  onResult(id: RequestId, answer: JsonObject): void {
    const { ledger, observer } = this.#host;
    const record = ledger.outbound(id);
    if (record === undefined) {
      if (!ledger.wasRecentlySettled(id)) observer.diagnostic(`dropped a response for unknown request id ${String(id)}`);
      return;
    }
    if (record.customResult !== undefined) {
      validateCustom(record.customResult, answer, (validation) => {
        if (validation.ok) ledger.settle(record, 'complete', validation.value as JsonObject);
        else ledger.settle(record, 'fail', new InvalidResultError(`Invalid result for ${record.method}: ${validation.message}`));
      });
      return;
    }
    const revision = this.#host.revision();
    const spec = record.method === 'initialize' ? undefined : requestSpec(revision, record.method);
    if (spec === undefined) {
      ledger.settle(record, 'complete', answer);
      return;
    }
    const typed = readResultType(revision, record.method, answer);
    if (typed instanceof Error) {
      ledger.settle(record, 'fail', typed);
      return;
    }
    // The common answer, one the verdict passes as it is (`schema-verdict.ts`), settles as it came:
    // no parse result is made for it; zod runs only on the rest, as in `parseWithSchema`.
    let result = typed;
    if (verdictOf(spec.result, typed) !== PASS) {
      const parsed = spec.result.safeParse(typed);
      if (!parsed.success) {
        ledger.settle(record, 'fail', new InvalidResultError(`Invalid result for ${record.method}: ${formatIssues(parsed.error)}`));
        return;
      }
      result = parsed.data as JsonObject;
    }
    if (isInputRequired(revision, result)) {
      void this.#rounds.next(record, result);
      return;
    }
    this.#retainTaskProgress(record, result);
    ledger.settle(record, 'complete', result);
  }

  onErrorResponse(message: JsonRpcErrorResponse): void {
    const { ledger, observer } = this.#host;
    const id = message.id;
    if (id === undefined || id === null) {
      observer.diagnostic(`the peer reported an error without a request id: ${message.error.message}`, message.error);
      return;
    }
    const record = ledger.outbound(id);
    if (record === undefined) {
      if (!ledger.wasRecentlySettled(id)) observer.diagnostic(`dropped an error response for unknown request id ${String(id)}`);
      return;
    }
    ledger.settle(record, 'fail', JsonRpcError.fromObject(message.error));
  }

  /** `notifications/progress` for one of our requests: back to processing, timeout reset, callback. */
  onProgress(params: JsonObject): void {
    const token = params.progressToken;
    const progress = params.progress;
    if ((typeof token !== 'string' && typeof token !== 'number') || typeof progress !== 'number') return;
    const ledger = this.#host.ledger;
    const record = ledger.byProgressToken(token);
    if (record === undefined) {
      const retained = ledger.retainedProgress(token);
      if (retained !== undefined) this.#deliverProgress(retained, params);
      return; // otherwise unknown or settled: dropped silently
    }
    ledger.move(record, 'progress');
    if (record.resetTimeoutOnProgress) this.#timeouts.arm(record);
    if (record.onProgress !== undefined) this.#deliverProgress(record.onProgress, params);
  }

  /** `notifications/tasks/status`: a terminal status ends the progress a task kept (MCP 2025-11-25, Tasks). */
  onTaskStatus(params: JsonObject): void {
    if (typeof params.taskId === 'string' && TERMINAL_TASK_STATUSES.has(String(params.status))) this.#host.ledger.releaseTask(params.taskId);
  }

  #deliverProgress(onProgress: (update: ProgressUpdate) => void, params: JsonObject): void {
    const update: ProgressUpdate = {
      progress: params.progress as number,
      ...(typeof params.total === 'number' ? { total: params.total } : {}),
      ...(typeof params.message === 'string' ? { message: params.message } : {}),
    };
    try {
      onProgress(update);
    } catch (error) {
      this.#host.observer.diagnostic('onProgress threw', error);
    }
  }

  /** Task-augmented requests (2025-11-25) keep their progress token after the CreateTaskResult until the task is terminal. */
  #retainTaskProgress(record: OutboundRecord, result: JsonObject): void {
    if (!record.taskAugmented || record.progressToken === undefined || record.onProgress === undefined) return;
    const task = result.task;
    if (!isJsonObject(task) || typeof task.taskId !== 'string' || TERMINAL_TASK_STATUSES.has(String(task.status))) return;
    this.#host.ledger.retainProgress(record.progressToken, task.taskId, record.onProgress);
  }
}
