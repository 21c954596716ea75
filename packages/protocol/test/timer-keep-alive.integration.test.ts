/** Request timeouts keep a real Node process alive until they fire (issue 18 #7). */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

describe('Session timers in a real process', () => {
  it('keeps the process alive until a pending request times out, then exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@statemcp/source', 'test/fixtures/pending-timeout.ts'], {
      cwd: packageRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stderr).toBe('');
    expect(stdout.trim()).toBe('REQUEST_TIMEOUT');
    expect(code).toBe(0);
  });
});
