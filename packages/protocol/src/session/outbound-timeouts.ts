/**
 * The timeouts of this side's requests (MCP 2025-11-25, Basic §Timeouts): each request's
 * timeout, restarted on progress when it asks for that, under the caller's hard maximum
 * (`maxTotalTimeoutMs`, armed by `OutboundRequests`). While the transport authorizes, the
 * timeouts stop and start over in full once it is done; the maximum keeps running.
 */
import type { Clock } from './clock.js';
import type { OutboundRecord, RequestLedger } from './ledger.js';

export class RequestTimeouts {
  readonly #ledger: RequestLedger;
  readonly #clock: Clock;
  /** While the transport authorizes: the requests whose timeout waits for it to end. */
  #paused: Set<OutboundRecord> | undefined;
  /** When an authorization last ended and restarted the pending timeouts (`-Infinity` if none has). */
  restartedAt = Number.NEGATIVE_INFINITY;

  constructor(ledger: RequestLedger, clock: Clock) {
    this.#ledger = ledger;
    this.#clock = clock;
  }

  /** (Re)starts the request's timeout: `timeoutMs` from now, unless it has none or authorization pauses it. */
  arm(record: OutboundRecord, now?: number): void {
    let at = Number.POSITIVE_INFINITY; // open by design (a listen stream): no timeout
    if (record.timeoutMs !== Infinity) {
      if (this.#paused === undefined) at = (now ?? this.#clock.now()) + record.timeoutMs;
      else this.#paused.add(record); // armed once the authorization ends
    }
    this.#ledger.deadlines.setTimeout(record, at);
  }

  /** Stops the request's timeout (it waits for input; the next round arms it again). */
  suspend(record: OutboundRecord): void {
    this.#ledger.deadlines.setTimeout(record, Number.POSITIVE_INFINITY);
  }

  /**
   * The transport is authorizing (`true`) or done (`false`), see `TransportSink.onAuthorizing`:
   * the pending requests' timeouts stop, then each starts over in full.
   */
  pause(active: boolean): void {
    const ledger = this.#ledger;
    if (active) {
      if (this.#paused !== undefined) return;
      const paused = (this.#paused = new Set());
      for (const record of ledger.pendingOutbound()) {
        if (record.timeoutAt === Number.POSITIVE_INFINITY) continue;
        ledger.deadlines.setTimeout(record, Number.POSITIVE_INFINITY);
        paused.add(record);
      }
      return;
    }
    const paused = this.#paused;
    this.#paused = undefined;
    this.restartedAt = this.#clock.now();
    for (const record of paused ?? []) {
      // Settled meanwhile, or between input rounds (the next round arms its own timer): nothing to restart.
      if (ledger.outbound(record.id) === record && record.state !== 'waitingForInput') this.arm(record);
    }
  }
}
