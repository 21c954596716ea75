/** Serves the dice example over stdio (`pnpm start`); exits when the client closes stdin. */
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { createDiceServer } from './dice-server.js';

await createDiceServer().connect(new StdioServerTransport());
