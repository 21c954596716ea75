/**
 * A gateway: one Streamable HTTP endpoint in front of two upstreams — a local server mounted
 * in memory and a remote statemcp server reached over HTTP — each under its own prefix
 * (`@statemcp/server/compose`). Calls, progress, cancellation and the upstreams' questions
 * back (sampling, elicitation, roots) are forwarded; a lost upstream is reconnected.
 */
import { Client } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { compose, proxy } from '@statemcp/server/compose';
import { z } from 'zod';

/** A local server: mounted in process. */
function createWeather(): McpServer {
  const weather = new McpServer({ name: 'weather', version: '1.0.0' });
  weather.registerTool('forecast', { description: 'Weather in a city', inputSchema: { city: z.string() } }, ({ city }) => ({
    content: [{ type: 'text', text: `Sunny in ${city}` }],
  }));
  return weather;
}

/** A remote server: served over Streamable HTTP, reached through statemcp's client. */
function createNews(): McpServer {
  const news = new McpServer({ name: 'news', version: '1.0.0' });
  news.registerTool('headline', { description: 'Today’s headline' }, () => ({ content: [{ type: 'text', text: 'Gateway ships' }] }));
  news.registerResource('front-page', 'news://front-page', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'All the news' }] }));
  return news;
}

/** Starts both upstreams and the gateway, calls it from two HTTP clients of different eras, and stops. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const news = createNews();
  const newsHttp = await createStreamableHttpServer({ connect: (transport) => news.connect(transport) }).listen({ port: 0 });

  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
  const composition = compose(gateway);
  await composition.mount('weather', createWeather());
  await composition.mount('news', proxy(() => new StreamableHttpClientTransport(newsHttp.url)));
  const mcp = createStreamableHttpServer({ connect: (transport) => gateway.connect(transport) });
  const http = await mcp.listen({ port: 0 });

  // alice speaks a legacy revision (a session), bob 2026-07-28 (stateless): the gateway serves both.
  const clients = await Promise.all(
    (['legacy', 'modern'] as const).map(async (era, index) => {
      const client = new Client({ name: index === 0 ? 'alice' : 'bob', version: '1.0.0' }, { era });
      await client.connect(new StreamableHttpClientTransport(http.url));
      return client;
    }),
  );
  const [alice, bob] = clients as [Client, Client];
  log(`tools: ${(await alice.listAllTools()).map((tool) => tool.name).join(', ')}`);
  const forecast = await alice.callTool({ name: 'weather_forecast', arguments: { city: 'Oslo' } });
  log(`client 1: ${JSON.stringify(forecast.content[0])}`);
  const headline = await bob.callTool({ name: 'news_headline' });
  log(`client 2: ${JSON.stringify(headline.content[0])}`);
  const page = await bob.readResource({ uri: 'news+news://front-page' });
  log(`resource: ${page.contents[0]?.uri}`);
  log(`eras: ${alice.era} and ${bob.era}; gateway sessions: ${mcp.sessions.size}`);

  await Promise.all(clients.map((client) => client.close()));
  await http.close();
  await composition.close();
  await gateway.close();
  await newsHttp.close();
  await news.close();
}
