/** Serves the notes example over Streamable HTTP on 127.0.0.1 (`pnpm start`; `PORT` picks the port, 3000 by default). */
import { startNotesHttpServer } from './notes-server.js';

const listening = await startNotesHttpServer({ port: Number(process.env['PORT'] ?? 3000) });
console.log(`notes server listening on ${listening.url.href}`);
