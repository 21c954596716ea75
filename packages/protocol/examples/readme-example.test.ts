import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { main } from './readme-example.js';
import { renderConnectionMermaid, renderRequestMermaid, renderTaskMermaid } from '../src/index.js';

describe('README', () => {
  it('runs the README example end to end', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines).toContain('negotiated 2025-11-25 with example-server');
    expect(lines).toContain('progress 2/2 done');
    expect(lines).toContain('client: shuttingDown -> terminated');
    expect(lines.at(-1)).toBe('closed: closed');
  });

  it('shows the example and the current state diagrams (UPDATE_DIAGRAMS=1 rewrites them)', () => {
    const readmeUrl = new URL('../README.md', import.meta.url);
    let readme = readFileSync(readmeUrl, 'utf8');
    if (process.env.UPDATE_DIAGRAMS === '1') {
      const blocks = [renderConnectionMermaid(), renderRequestMermaid(), renderTaskMermaid()];
      let index = 0;
      readme = readme.replace(/```mermaid\n[\s\S]*?```/g, () => `\`\`\`mermaid\n${blocks[index++] ?? ''}\n\`\`\``);
      writeFileSync(readmeUrl, readme);
    }
    expect(readme).toContain(readFileSync(new URL('./readme-example.ts', import.meta.url), 'utf8').trim());
    expect(readme).toContain(renderConnectionMermaid());
    expect(readme).toContain(renderRequestMermaid());
    expect(readme).toContain(renderTaskMermaid());
  });
});
