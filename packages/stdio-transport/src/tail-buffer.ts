/**
 * A bounded byte buffer that keeps only the most recent bytes written to it: the stderr
 * tail a client transport keeps for diagnostics. Memory stays at most `capacity` bytes
 * however much a child writes; each byte is copied at most once on the way in.
 */

/** Default stderr tail kept by the client transport: 64 KiB. */
export const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;

export class TailBuffer {
  readonly capacity: number;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #totalWritten = 0;

  constructor(capacity: number = DEFAULT_STDERR_TAIL_BYTES) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) {
      throw new RangeError(`capacity must be a non-negative integer, got ${String(capacity)}`);
    }
    this.capacity = capacity;
  }

  /** Bytes written since creation, including those no longer kept. */
  get totalWritten(): number {
    return this.#totalWritten;
  }

  /** Bytes currently kept. */
  get size(): number {
    return this.#bytes;
  }

  write(chunk: Uint8Array): void {
    this.#totalWritten += chunk.byteLength;
    if (this.capacity === 0 || chunk.byteLength === 0) return;
    if (chunk.byteLength >= this.capacity) {
      this.#chunks = [Buffer.from(chunk.subarray(chunk.byteLength - this.capacity))];
      this.#bytes = this.capacity;
      return;
    }
    // Copy: the caller may reuse its buffer, and a small slice must not pin a large one.
    this.#chunks.push(Buffer.from(chunk));
    this.#bytes += chunk.byteLength;
    let excess = this.#bytes - this.capacity;
    while (excess > 0) {
      const first = this.#chunks[0];
      if (first === undefined) break;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#bytes -= first.length;
        excess -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#bytes -= excess;
        excess = 0;
      }
    }
  }

  /**
   * The kept bytes decoded as UTF-8. Leading UTF-8 continuation bytes (a character cut in
   * half by the bound) are skipped rather than rendered as replacement characters.
   */
  toString(): string {
    const all = Buffer.concat(this.#chunks, this.#bytes);
    let start = 0;
    while (start < all.length && start < 3 && ((all[start] ?? 0) & 0xc0) === 0x80) start += 1;
    return all.toString('utf8', start);
  }

  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
  }
}

/** The last line of `text` that is not blank, cut to 200 characters (a crash's likely reason). */
export function lastNonEmptyLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index]?.trim();
    if (line !== undefined && line.length > 0) return line.length > 200 ? `${line.slice(0, 200)}…` : line;
  }
  return undefined;
}
