/**
 * Stray output from a stdio server: a line on stdout that is not JSON, usually a
 * `console.log` left in the server. The protocol ignores such a line, but dropping it without
 * a sign hides a bug that corrupts the channel the day the line happens to look like JSON.
 * This reporter tells the user once, on stderr, and then at most once per interval with a
 * count, so a server that logs on every call cannot flood the terminal.
 *
 * ```
 * statemcp: the stdio server "node server.js" wrote a line to stdout that is not JSON-RPC (ignored): "listening on 3000"
 *   stdout is the protocol channel; log to stderr instead. Later stray lines are counted (strayOutput: 'ignore' silences this).
 * statemcp: the stdio server "node server.js" wrote 41 more stray lines to stdout in the last 60 s; the latest: "got request"
 * ```
 */

/** What the stdio client does with stray (non-JSON) lines on the server's stdout. */
export type StrayOutputMode = 'warn' | 'ignore';

/** The longest excerpt of a stray line quoted in a warning. */
const EXCERPT_CHARS = 80;
/** At most one warning per this many ms after the first. */
export const STRAY_OUTPUT_INTERVAL_MS = 60_000;

/** Where warnings go and how time is read; the defaults are stderr and the system clock. */
export interface StrayOutputReporterOptions {
  readonly command: string;
  readonly write: (text: string) => void;
  readonly now: () => number;
}

export class StrayOutputReporter {
  readonly #options: StrayOutputReporterOptions;
  /** When the last warning was written; undefined before the first. */
  #warnedAt: number | undefined;
  #unreported = 0;

  constructor(options: StrayOutputReporterOptions) {
    this.#options = options;
  }

  /** Reports one stray line: the first at once, later ones counted and summed up once per interval. */
  report(line: string): void {
    const now = this.#options.now();
    const { command } = this.#options;
    if (this.#warnedAt === undefined) {
      this.#warnedAt = now;
      this.#write(
        `statemcp: the stdio server "${command}" wrote a line to stdout that is not JSON-RPC (ignored): ${excerpt(line)}\n` +
          `  stdout is the protocol channel; log to stderr instead. Later stray lines are counted (strayOutput: 'ignore' silences this).\n`,
      );
      return;
    }
    this.#unreported++;
    if (now - this.#warnedAt < STRAY_OUTPUT_INTERVAL_MS) return;
    const seconds = Math.round((now - this.#warnedAt) / 1000);
    this.#warnedAt = now;
    const count = this.#unreported;
    this.#unreported = 0;
    this.#write(`statemcp: the stdio server "${command}" wrote ${count} more stray line${count === 1 ? '' : 's'} to stdout in the last ${seconds} s; the latest: ${excerpt(line)}\n`);
  }

  #write(text: string): void {
    try {
      this.#options.write(text);
    } catch {
      // A warning must never break the transport.
    }
  }
}

function excerpt(line: string): string {
  const trimmed = line.trim();
  const cut = trimmed.length > EXCERPT_CHARS ? `${trimmed.slice(0, EXCERPT_CHARS)}…` : trimmed;
  return JSON.stringify(cut);
}
