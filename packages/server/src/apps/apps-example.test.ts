import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/apps-example.js';

describe('README MCP Apps example', () => {
  describe('#main', () => {
    it('runs end to end', async () => {
      await expect(main()).resolves.toEqual([
        'tool ui: {"resourceUri":"ui://clock/view.html"}',
        'view ui: {"csp":{"connectDomains":["https://time.example.com"]},"permissions":{"clipboardWrite":{}},"prefersBorder":false}',
        'html: 105 chars',
        'result: {"type":"text","text":"Showing the time in UTC"}',
      ]);
    });
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../../examples/apps-example.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
