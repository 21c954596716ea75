// Runs the examples of docs/guide/observability.md and checks what they printed.
import { describe, expect, it } from 'vitest';
import { main as logging } from './logging.js';
import { main as middleware } from './middleware.js';
import { main as tracing } from './tracing.js';

async function run(main: (log: (line: string) => void) => Promise<void>): Promise<string> {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  return lines.join('\n');
}

describe('the observability guide’s examples', () => {
  it('middleware: a cached answer, a middleware bug, a refused caller, the audit trail', async () => {
    const output = await run(middleware);
    expect(output).toContain('client: calling echo');
    expect(output).toContain('echo hello: {"type":"text","text":"hello"}');
    expect(output).toContain('echo cached: {"type":"text","text":"from the cache"}');
    expect(output).toContain('echo crash the middleware: -32603 a middleware bug');
    expect(output).toContain('admin_reset: -32001 admin_reset needs a signed-in caller');
    expect(output).toContain('audit: server/discover ok; tools/call echo ok; tools/call echo ok; tools/call echo error; tools/call admin_reset error');
  });

  it('tracing: the collector receives the client span and, in the same trace, the server span under it', async () => {
    const output = await run(tracing);
    const root = /collector: tools\/call forecast trace (\w+)… root/.exec(output);
    expect(root).not.toBeNull();
    expect(output).toContain(`collector: tools/call forecast trace ${root?.[1] ?? ''}… child`);
  });

  it('logging: the server’s events and the handler’s lines in pino, only warnings and worse to the client', async () => {
    const lines = (await run(logging)).split('\n');
    const pinoLines = lines.filter((line) => line.startsWith('pino ')).map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
    expect(pinoLines.map((line) => line.msg)).toEqual([
      'connection opened',
      'looking up the forecast',
      'request completed',
      'looking up the forecast',
      'no station there',
      'tool reported an error',
      'connection closed',
    ]);
    expect(pinoLines.find((line) => line.msg === 'no station there')).toMatchObject({ level: 40, mcpLevel: 'warning', city: 'Atlantis' });
    expect(lines.filter((line) => line.startsWith('client got'))).toEqual(['client got warning: {"message":"no station there","city":"Atlantis"}']);
  });
});
