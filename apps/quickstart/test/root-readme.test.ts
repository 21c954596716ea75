// The root README draws the connection lifecycle; keep that copy equal to the machine's table
// (UPDATE_DIAGRAMS=1 rewrites it, like the protocol package's README test).
import { readFileSync, writeFileSync } from 'node:fs';
import { renderConnectionMermaid } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';

describe('root README', () => {
  it('shows the current connection state diagram', () => {
    const readmeUrl = new URL('../../../README.md', import.meta.url);
    let readme = readFileSync(readmeUrl, 'utf8');
    if (process.env.UPDATE_DIAGRAMS === '1') {
      readme = readme.replace(/```mermaid\n[\s\S]*?```/, () => `\`\`\`mermaid\n${renderConnectionMermaid()}\n\`\`\``);
      writeFileSync(readmeUrl, readme);
    }
    expect(readme).toContain(`\`\`\`mermaid\n${renderConnectionMermaid()}\n\`\`\``);
  });

  it('keeps the set-up, test and demo commands', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const command of ['npx -y pnpm@10.34.8 install', 'npx -y pnpm@10.34.8 test', 'npx -y pnpm@10.34.8 demo']) expect(readme).toContain(command);
  });
});
