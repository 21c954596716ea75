// Runs the examples of docs/guide/observability.md and checks what they printed.
import { describe, expect, it } from 'vitest';
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
});
