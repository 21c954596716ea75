import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/server.js';

describe('README Server section', () => {
  it('runs the example end to end', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines).toContain('initialize: 200 application/json, session id issued: true');
    expect(lines).toContain('tools/call: 200 text/event-stream');
    expect(lines).toContain('  event: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}');
    expect(lines).toContain('  event: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello from greet"}]}}');
    expect(lines).toContain('foreign Origin: 403');
    expect(lines.at(-1)).toBe('DELETE: 200, then: 404');
  });

  it('shows the example verbatim, with the published import path', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../examples/server.ts', import.meta.url), 'utf8')
      .replace("'../src/server/index.js'", "'@statemcp/http-transport/server'")
      .trim();
    expect(readme).toContain(example);
  });
});
