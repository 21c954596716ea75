/**
 * The notes server, written fresh for statemcp as the acceptance port of issue 21. It uses the
 * four features a typical hand-written server of the official SDK reaches for:
 *
 * - a custom method, `com.example.notes/search`, outside the MCP specification;
 * - the HTTP request of a call: `add_note` and `my_notes` act for the user named by the
 *   `x-user` request header (`anonymous` without one, and on transports without HTTP);
 * - a level-3 URI template, `notes://{+path}{?format,lines}` — a reserved expansion for the
 *   note's path (it spans segments) and form-style query variables for the rendering;
 * - an MCP App: `show_board` names its view `ui://notes/board.html`, served as
 *   `text/html;profile=mcp-app`.
 */
import { readFileSync } from 'node:fs';
import { createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { McpServer, type RequestExtra } from '@statemcp/server';
import { registerAppTool, registerAppView } from '@statemcp/server/apps';
import { z } from 'zod';
import { NotesStore, renderNote } from './notes-store.js';

export const SEARCH_METHOD = 'com.example.notes/search';
export const NOTES_TEMPLATE = 'notes://{+path}{?format,lines}';
export const BOARD_URI = 'ui://notes/board.html';

/** The view, read once: one HTML file with its style and script inline. */
export const BOARD_HTML = readFileSync(new URL('./board.html', import.meta.url), 'utf8');

/** Params and result of the custom search method. */
export const Search = {
  params: z.object({ query: z.string().min(1) }),
  result: z.object({ paths: z.array(z.string()) }),
};

/** The user a call acts for: the `x-user` header of its HTTP request, else `anonymous`. */
export function callingUser(extra: Pick<RequestExtra, 'http'>): string {
  const user = extra.http?.headers['x-user']?.trim();
  return user === undefined || user === '' ? 'anonymous' : user;
}

/** One notes server (one per session); every server built on the same `store` sees the same notes. */
export function createNotesServer(store: NotesStore): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });

  server.method(SEARCH_METHOD, Search, ({ query }) => ({ paths: store.search(query) }));

  server.registerTool(
    'add_note',
    {
      description: 'Saves a note at a path, written by the calling user',
      inputSchema: { path: z.string().regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/), title: z.string().min(1), body: z.array(z.string()) },
      outputSchema: { path: z.string(), author: z.string() },
    },
    ({ path, title, body }, extra) => {
      const author = callingUser(extra);
      store.save({ path, title, body, author });
      return { content: [{ type: 'text', text: `Saved ${path} for ${author}.` }], structuredContent: { path, author } };
    },
  );

  server.registerTool(
    'my_notes',
    { description: 'Lists the notes the calling user wrote', outputSchema: { author: z.string(), paths: z.array(z.string()) } },
    (_args, extra) => {
      const author = callingUser(extra);
      const paths = store.all().filter((note) => note.author === author).map((note) => note.path);
      const text = paths.length === 0 ? `${author} has no notes.` : `${author} wrote: ${paths.join(', ')}`;
      return { content: [{ type: 'text', text }], structuredContent: { author, paths } };
    },
  );

  server.registerResourceTemplate(
    'note',
    NOTES_TEMPLATE,
    {
      description: 'A note by path; ?format=plain for its lines only, ?lines=N for the first N lines',
      mimeType: 'text/markdown',
      list: () => store.all().map((note) => ({ uri: `notes://${note.path}`, name: note.path, title: note.title })),
      complete: { path: (value) => store.all().map((note) => note.path).filter((path) => path.startsWith(value)) },
    },
    (uri, { path, format, lines }) => {
      const note = store.get(path);
      if (note === undefined) throw new Error(`No note at ${path}`);
      const plain = format === 'plain';
      const limit = lines === undefined ? undefined : Number.parseInt(lines, 10);
      const text = renderNote(note, plain ? 'plain' : 'markdown', limit !== undefined && Number.isFinite(limit) ? limit : undefined);
      return { contents: [{ uri, mimeType: plain ? 'text/plain' : 'text/markdown', text }] };
    },
  );

  registerAppView(server, 'notes-board', BOARD_URI, {
    title: 'Notes board',
    description: 'Shows every note as a card',
    html: BOARD_HTML,
    csp: { connectDomains: [], resourceDomains: [] },
  });

  registerAppTool(
    server,
    'show_board',
    {
      title: 'Show the notes board',
      description: 'Lists every note; hosts with MCP Apps show them on a board',
      outputSchema: { notes: z.array(z.object({ path: z.string(), title: z.string(), author: z.string() })) },
      ui: { resourceUri: BOARD_URI },
    },
    () => {
      const notes = store.all().map(({ path, title, author }) => ({ path, title, author }));
      return { content: [{ type: 'text', text: notes.map((note) => `${note.path}: ${note.title} (${note.author})`).join('\n') }], structuredContent: { notes } };
    },
  );

  return server;
}

/** Serves the notes over Streamable HTTP on 127.0.0.1 (`port: 0` picks a free port); one store for every session. */
export async function startNotesHttpServer(options: { port?: number; store?: NotesStore } = {}): Promise<ListeningServer> {
  const store = options.store ?? new NotesStore();
  const http = createStreamableHttpServer({ connect: (transport) => createNotesServer(store).connect(transport) });
  return http.listen({ host: '127.0.0.1', port: options.port ?? 0 });
}
