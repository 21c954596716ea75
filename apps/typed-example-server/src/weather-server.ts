/**
 * The weather server of the typed client guide (docs/guide/typed-client.md). Its registrations
 * are chained, so `WeatherServer` — the type it exports — describes every tool's arguments and
 * structured result, the prompt's arguments and the report template's variables. A client
 * package imports that type only (`import type`): nothing of this file runs in the client.
 */
import { McpServer, defineTool } from '@statemcp/server';
import { z } from 'zod';

const CLIMATE: Readonly<Record<string, number>> = { lyon: 14, oslo: 6, lima: 19 };

/**
 * A tool defined on its own (`defineTool`), the form for servers with many tools. Given the
 * config first, `.handle` types the handler from the schemas already fixed, so the enum member
 * in its result keeps its literal type.
 */
const forecast = defineTool({
  description: 'Forecast for a city',
  inputSchema: { city: z.string(), days: z.number().int().min(1).max(7).default(1) },
  outputSchema: { city: z.string(), celsius: z.array(z.number()), summary: z.enum(['sunny', 'cloudy', 'rain']) },
}).handle(({ city, days }) => {
  // The structured value alone is enough: it becomes structuredContent, and its JSON text the content.
  const base = CLIMATE[city.toLowerCase()] ?? 10;
  return { city, celsius: Array.from({ length: days }, (_, day) => base + day), summary: base > 12 ? 'sunny' : 'cloudy' };
});

/** Builds the server; `main.ts` serves it over stdio. */
export function createWeatherServer() {
  return new McpServer({ name: 'typed-weather', version: '1.0.0' })
    .withTools({ forecast })
    .withTool('alerts', { description: 'Active weather alerts', inputSchema: { region: z.enum(['north', 'south']) } }, ({ region }, extra) => ({
      content: [{ type: 'text', text: `No alerts in the ${region} (${extra.protocolVersion})` }],
    }))
    .withPrompt('brief', { description: 'Asks for a weather brief', argsSchema: { city: z.string(), tone: z.string().optional() } }, ({ city, tone }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Write a ${tone ?? 'short'} weather brief for ${city}.` } }],
    }))
    .withResourceTemplate('report', 'weather://{city}/report{?day}', { description: 'A day report' }, (uri, { city, day }) => ({
      contents: [{ uri, mimeType: 'text/plain', text: `${city}: ${day ?? 'today'} is mild` }],
    }));
}

/** The server's type: what `typedClient<WeatherServer>(client)` reads. */
export type WeatherServer = ReturnType<typeof createWeatherServer>;
