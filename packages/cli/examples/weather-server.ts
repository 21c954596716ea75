import type { McpServer } from '@statemcp/server';
import { z } from 'zod';

export const serverInfo = { name: 'weather', version: '1.0.0' };

export default function register(server: McpServer) {
  server.registerTool(
    'forecast',
    { description: 'Tomorrow’s weather for a city', inputSchema: { city: z.string() } },
    ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
  );
  server.registerResource('cities', 'weather://cities', { mimeType: 'application/json' }, (uri) => ({
    contents: [{ uri, text: JSON.stringify(['Lisbon', 'Oslo']) }],
  }));
  server.registerPrompt('packing', { argsSchema: { city: z.string() } }, ({ city }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `What should I pack for ${city}?` } }],
  }));

  const timer = setInterval(() => void server.notifyResourceUpdated('weather://cities'), 60_000);
  return () => clearInterval(timer); // runs before the next version replaces this one
}
