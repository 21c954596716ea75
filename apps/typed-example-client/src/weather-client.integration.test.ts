/**
 * The typed client guide's example, run: the client package spawns the server package over stdio
 * and calls it through `typedClient<WeatherServer>`, in the 2026-07-28 era and in the legacy one.
 * The type-level half (a wrong tool name, argument or result field does not compile) is checked
 * by this package's typecheck.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client, typedClient } from '@statemcp/client';
import type { WeatherServer } from '@statemcp/typed-example-server';
import { describe, expect, it } from 'vitest';
import { askWeather } from './weather-client.js';

const require = createRequire(import.meta.url);
const serverRoot = dirname(require.resolve('@statemcp/typed-example-server/package.json'));
/** The server package's `start` script: its TypeScript run with tsx, from its own folder. */
const SERVER = { command: process.execPath, args: ['--conditions=@statemcp/source', '--import', 'tsx', join(serverRoot, 'src', 'main.ts')], cwd: serverRoot };

describe('the typed weather example', () => {
  for (const [era, version] of [
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ] as const) {
    it(`calls the server's tools, prompt and template through its type (${era} era)`, async () => {
      const report = await askWeather(SERVER, era);
      expect(report).toEqual({
        protocolVersion: version,
        celsius: [14, 15, 16],
        summary: 'sunny',
        alerts: `No alerts in the north (${version})`,
        brief: 'Write a short weather brief for Lyon.',
        report: 'Lyon: monday is mild',
        refusal: 'tool error',
      });
    });
  }

  it('refuses at compile time what the server does not define', () => {
    const weather = typedClient<WeatherServer>(new Client({ name: 'types', version: '1.0.0' }));
    const typeOnly = (): void => {
      // @ts-expect-error no tool named "forecasts"
      void weather.tools.forecasts({ city: 'Lyon' });
      // @ts-expect-error days is a number
      void weather.tools.forecast({ city: 'Lyon', days: 'three' });
      // @ts-expect-error region is north or south
      void weather.tools.alerts({ region: 'east' });
      // @ts-expect-error the template needs a city
      void weather.resources.report({ day: 'monday' });
      void weather.tools.forecast({ city: 'Lyon' }).then((result) => {
        // @ts-expect-error no "fahrenheit" in the output schema
        if (!result.isError) void result.structuredContent.fahrenheit;
      });
    };
    expect(typeof typeOnly).toBe('function');
  });
});
