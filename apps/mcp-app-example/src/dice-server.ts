/**
 * The MCP Apps example server: `roll_dice` rolls a die and names its view, `ui://dice/view.html`,
 * a single-file HTML page served as `text/html;profile=mcp-app` (no external origins, so an empty
 * CSP; a border requested). Hosts that render MCP Apps show the page; every other client gets the
 * same tool with a text result, worded for the model.
 */
import { readFileSync } from 'node:fs';
import { McpServer } from '@statemcp/server';
import { clientSupportsApps, registerAppTool, registerAppView } from '@statemcp/server/apps';
import { z } from 'zod';

export const VIEW_URI = 'ui://dice/view.html';

/** The view, read once: one HTML file with its style and script inline. */
export const VIEW_HTML = readFileSync(new URL('./view.html', import.meta.url), 'utf8');

/** A dice server; `random` is injectable so tests can pin the roll. */
export function createDiceServer(random: () => number = Math.random): McpServer {
  const server = new McpServer({ name: 'dice', version: '1.0.0' });

  registerAppView(server, 'dice-view', VIEW_URI, {
    title: 'Dice',
    description: 'Shows the last roll and rolls again',
    html: VIEW_HTML,
    csp: { connectDomains: [], resourceDomains: [] },
    prefersBorder: true,
  });

  registerAppTool(
    server,
    'roll_dice',
    {
      title: 'Roll dice',
      description: 'Rolls one die with the given number of sides',
      inputSchema: { sides: z.number().int().min(2).max(100).default(6) },
      outputSchema: { value: z.number().int(), sides: z.number().int() },
      ui: { resourceUri: VIEW_URI, visibility: ['model', 'app'] },
    },
    ({ sides }, extra) => {
      const value = 1 + Math.floor(random() * sides);
      // Hosts with a view show the page; for the others the text is all there is.
      const text = clientSupportsApps(extra) ? `Rolled ${value} (d${sides}); the view shows it.` : `Rolled a ${value} on a ${sides}-sided die.`;
      return { content: [{ type: 'text', text }], structuredContent: { value, sides } };
    },
  );

  return server;
}
