import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/frameworks.js';

describe('README Frameworks section', () => {
  it('runs the example: the same server through Express, Fastify and Hono', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines).toEqual([
      'express: POST /mcp from 127.0.0.1 as ada',
      'fastify: POST /mcp from 127.0.0.1 as ada',
      'hono: POST /mcp from 127.0.0.1 as ada',
    ]);
  });

  it('shows the example verbatim, with the published import paths', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../examples/frameworks.ts', import.meta.url), 'utf8')
      .replace(/'\.\.\/src\/(server|client|express|fastify|hono)\/index\.js'/g, "'@statemcp/http-transport/$1'")
      .trim();
    expect(readme).toContain(example);
  });
});
