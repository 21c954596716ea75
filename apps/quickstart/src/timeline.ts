/**
 * A readable timeline of one MCP conversation, merged from both sides: the client's inspection
 * events (this process) and the server's (a child process, sent over its stderr as JSON lines).
 * Entries are kept until `flush()`, then printed in time order, each with its offset from the
 * start of the demo.
 */
import type { ConnectionStateKind, InspectEvent } from '@statemcp/protocol';

export type Side = 'client' | 'server' | 'demo';

interface Entry {
  /** Wall-clock time, ms since the epoch. */
  readonly wallMs: number;
  readonly side: Side;
  readonly text: string;
  /** Insertion order, to keep equal timestamps stable. */
  readonly seq: number;
}

/** `shuttingDown` → `ShuttingDown`: the state names the lifecycle literature uses. */
export function stateName(kind: ConnectionStateKind): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** One line for an inspection event, or `undefined` for events the timeline leaves out. */
export function describeEvent(event: InspectEvent): string | undefined {
  switch (event.type) {
    case 'session.transition':
      return `connection  ${stateName(event.from)} → ${stateName(event.to)}  (${event.event})`;
    case 'request.transition': {
      const arrow = event.direction === 'outbound' ? '→' : '←';
      const settled = ['completed', 'failed', 'cancelled', 'expired', 'aborted'].includes(event.to);
      // A request's first event reports its creation (from and to are both `created`).
      if (event.from === event.to) return `request     ${arrow} ${event.method} #${String(event.requestId)}  created`;
      return `request     ${arrow} ${event.method} #${String(event.requestId)}  ${event.from} → ${event.to}${settled ? `  after ${ms(event.elapsedMs)}` : ''}`;
    }
    case 'message.out': {
      const message = event.message as { method?: unknown; id?: unknown; params?: unknown };
      // Requests and responses already show up as request transitions; notifications do not.
      if (typeof message.method !== 'string' || 'id' in message) return undefined;
      if (message.method !== 'notifications/cancelled' && message.method !== 'notifications/initialized') return undefined;
      return `notify      → ${message.method}${message.params === undefined ? '' : ` ${JSON.stringify(message.params)}`}`;
    }
    case 'task.transition':
      return `task        ${event.side} ${event.taskId.slice(0, 8)}… ${event.from} → ${event.to}  (${event.event})`;
    case 'message.in':
    case 'diagnostic':
      return undefined;
  }
}

export class Timeline {
  readonly #write: (line: string) => void;
  readonly #originMs: number;
  #entries: Entry[] = [];
  #seq = 0;

  constructor(write: (line: string) => void, originMs: number = performance.timeOrigin + performance.now()) {
    this.#write = write;
    this.#originMs = originMs;
  }

  /** An inspection event of a session in this process. */
  local(side: Side, event: InspectEvent): void {
    const text = describeEvent(event);
    if (text !== undefined) this.#add(performance.timeOrigin + event.at, side, text);
  }

  /** An inspection event from another process, with its wall-clock time. */
  remote(side: Side, wallMs: number, event: InspectEvent): void {
    const text = describeEvent(event);
    if (text !== undefined) this.#add(wallMs, side, text);
  }

  /** A line of narration at the current time. */
  note(text: string): void {
    this.#add(performance.timeOrigin + performance.now(), 'demo', text);
  }

  /** Prints every entry collected so far in time order, then forgets them. */
  flush(): void {
    const entries = this.#entries.sort((a, b) => a.wallMs - b.wallMs || a.seq - b.seq);
    this.#entries = [];
    for (const entry of entries) {
      const offset = `+${(entry.wallMs - this.#originMs).toFixed(1)}`.padStart(9);
      const side = entry.side === 'demo' ? '  ▸    ' : entry.side.padEnd(7);
      this.#write(`${offset} ms  ${side} ${entry.text}`);
    }
  }

  #add(wallMs: number, side: Side, text: string): void {
    this.#entries.push({ wallMs, side, text, seq: this.#seq++ });
  }
}

/** Splits a byte stream into lines, for a child's stderr. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString();
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  };
}
