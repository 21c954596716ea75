/** Serves the weather server over stdio (`pnpm start`, or spawned by the client package's test). */
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { createWeatherServer } from './weather-server.js';

await createWeatherServer().connect(new StdioServerTransport());
