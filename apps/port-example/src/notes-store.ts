/**
 * The notes the example serves: each note lives at a slash-separated path (`ideas/mcp`),
 * has a title, a body of lines and the user who wrote it. Kept in memory, shared by every
 * session of one server.
 */

/** One note. */
export interface Note {
  readonly path: string;
  readonly title: string;
  readonly body: readonly string[];
  readonly author: string;
}

/** The notes a fresh store starts with. */
export const SEED_NOTES: readonly Note[] = [
  { path: 'ideas/mcp', title: 'MCP ideas', body: ['Port a server', 'Add a view', 'Try the 2026 era'], author: 'grace' },
  { path: 'shopping', title: 'Shopping', body: ['Tea', 'Bread'], author: 'ada' },
];

/** An in-memory note store. */
export class NotesStore {
  readonly #notes = new Map<string, Note>();

  constructor(seed: readonly Note[] = SEED_NOTES) {
    for (const note of seed) this.#notes.set(note.path, note);
  }

  /** Saves (or replaces) the note at `note.path`. */
  save(note: Note): Note {
    this.#notes.set(note.path, note);
    return note;
  }

  get(path: string): Note | undefined {
    return this.#notes.get(path);
  }

  /** Every note, sorted by path. */
  all(): Note[] {
    return [...this.#notes.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Paths of the notes whose title or body contains `query` (case-insensitive). */
  search(query: string): string[] {
    const needle = query.toLowerCase();
    return this.all()
      .filter((note) => [note.title, ...note.body].some((text) => text.toLowerCase().includes(needle)))
      .map((note) => note.path);
  }
}

/** A note as text: Markdown (a heading and a bullet per line) or plain (the lines), at most `lines` body lines. */
export function renderNote(note: Note, format: 'markdown' | 'plain', lines?: number): string {
  const body = lines === undefined ? note.body : note.body.slice(0, lines);
  return format === 'markdown' ? [`# ${note.title}`, '', ...body.map((line) => `- ${line}`)].join('\n') : body.join('\n');
}
