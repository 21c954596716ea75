/**
 * The client half of the typed client guide: everything it knows of the server is its type,
 * imported with `import type` (erased from the compiled JavaScript), yet every call below is
 * checked — names, arguments, structured results.
 */
import { Client, typedClient, type ToolCallError } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import type { WeatherServer } from '@statemcp/typed-example-server';

/** What one session with the server found out. */
export interface WeatherReport {
  readonly protocolVersion: string;
  readonly celsius: readonly number[];
  readonly summary: 'sunny' | 'cloudy' | 'rain';
  readonly alerts: string;
  readonly brief: string;
  readonly report: string;
  readonly refusal: ToolCallError | string;
}

/** How to start the server: its command, arguments and working directory. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
}

/** Spawns the server, calls each of its tools, its prompt and its template, and closes. */
export async function askWeather(server: ServerCommand, era: 'auto' | 'legacy' = 'auto'): Promise<WeatherReport> {
  const client = new Client({ name: 'weather-app', version: '1.0.0' }, { era });
  await client.connect(new StdioClientTransport({ command: server.command, args: [...server.args], ...(server.cwd === undefined ? {} : { cwd: server.cwd }) }));
  try {
    const weather = typedClient<WeatherServer>(client);

    const forecast = await weather.tools.forecast({ city: 'Lyon', days: 3 });
    if (forecast.isError) throw new Error('forecast failed');
    const { celsius, summary } = forecast.structuredContent; // number[] and 'sunny' | 'cloudy' | 'rain'

    const alerts = await weather.tools.alerts({ region: 'north' });
    const brief = await weather.prompts.brief({ city: 'Lyon' });
    const report = await weather.resources.report({ city: 'Lyon', day: 'monday' });

    // Errors as values, typed per call: days is at most 7, so the server answers with a tool error.
    const tooFar = await weather.tools.forecast.safe({ city: 'Lyon', days: 30 });
    const refusal = tooFar.ok ? (tooFar.result.isError === true ? 'tool error' : 'accepted') : tooFar.error;

    return {
      protocolVersion: client.protocolVersion ?? '',
      celsius,
      summary,
      alerts: alerts.content[0]?.type === 'text' ? alerts.content[0].text : '',
      brief: brief.messages[0]?.content.type === 'text' ? brief.messages[0].content.text : '',
      report: report.contents[0] !== undefined && 'text' in report.contents[0] ? report.contents[0].text : '',
      refusal,
    };
  } finally {
    await client.close();
  }
}
