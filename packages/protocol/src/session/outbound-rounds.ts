/**
 * The rounds of a Multi Round-Trip Request this side sent (MCP 2026-07-28, Multi Round-Trip
 * Requests): a result that asks for input pauses the request (`waitingForInput`, its timeout
 * stopped, its maximum and signal live) while every input request is answered through this
 * side's handlers; then the request goes out again under a new id with the original params,
 * `inputResponses` keyed like the input requests, and `requestState` echoed as sent. Past
 * `maxInputRounds` rounds it fails with {@link InputRoundsExceededError}.
 */
import { InputRoundsExceededError, RequestCancelledError } from '../errors/errors.js';
import { isJsonObject, type JsonObject } from '../jsonrpc/messages.js';
import { DEFAULT_MAX_INPUT_ROUNDS, gatherInputResponses, inputRequestContext, retryParams } from './input-rounds.js';
import type { OutboundRecord } from './ledger.js';
import type { OutboundHost } from './outbound.js';
import type { RequestTimeouts } from './outbound-timeouts.js';

/** What the rounds read of their session. */
type RoundsHost = Pick<OutboundHost, 'ledger' | 'observer' | 'options' | 'revision' | 'answerInput'>;

/** Where the next round goes out: the same request under a new id, with `params` (`OutboundRequests`). */
export interface Resender {
  resend(record: OutboundRecord, params: JsonObject): void;
}

export class InputRoundTrips {
  readonly #host: RoundsHost;
  readonly #timeouts: RequestTimeouts;
  readonly #resender: Resender;

  constructor(host: RoundsHost, timeouts: RequestTimeouts, resender: Resender) {
    this.#host = host;
    this.#timeouts = timeouts;
    this.#resender = resender;
  }

  /** `record` may answer `input_required`: its retries start from `params`. */
  track(record: OutboundRecord, params: JsonObject | undefined, onRound: ((round: number) => void) | undefined): void {
    record.rounds = { params, count: 0, onRound };
  }

  /** A middleware chose the request's trace context before it was written: its retries carry the new params too. */
  retrace(record: OutboundRecord, params: JsonObject): void {
    const rounds = record.rounds;
    if (rounds !== undefined) record.rounds = { ...rounds, params };
  }

  /** The peer answered `record` with `input_required`: one more round (see the file header). */
  async next(record: OutboundRecord, result: JsonObject): Promise<void> {
    const host = this.#host;
    const { ledger } = host;
    const rounds = (record.rounds ??= { params: undefined, count: 0, onRound: undefined });
    const max = host.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    if (++rounds.count > max) {
      ledger.settle(record, 'fail', new InputRoundsExceededError(`${record.method} still needed input after ${max} rounds; giving up`));
      return;
    }
    const asked = result.inputRequests;
    record.input = { round: rounds.count, keys: isJsonObject(asked) ? Object.keys(asked) : [], firstId: record.input?.firstId ?? record.id };
    ledger.move(record, 'awaitInput');
    try {
      rounds.onRound?.(rounds.count);
    } catch (error) {
      host.observer.diagnostic('onInputRound threw', error);
    }
    this.#timeouts.suspend(record);
    // Settling the request (cancel, maximum, close) aborts the handlers still answering.
    const controller = new AbortController();
    const detach = record.detach;
    record.detach = () => {
      controller.abort(new RequestCancelledError(`${record.method} ended while its input was being gathered`));
      detach?.();
    };
    const version = host.revision().version;
    let responses: JsonObject | undefined;
    try {
      responses = isJsonObject(asked) ? await gatherInputResponses(
            asked,
            (method, input, context) => host.answerInput(method, input, context),
            (method, key) => inputRequestContext(record.id, method, version, controller.signal, key),
            host.options.concurrentInputs === true,
          ) : undefined;
    } catch (error) {
      ledger.settle(record, 'fail', error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (ledger.outbound(record.id) !== record) return; // settled while the input was gathered
    record.detach = detach;
    this.#resender.resend(record, retryParams(rounds.params, result, responses));
  }
}
