// The documented command as a real process: it prints the proxy URL, the cluster answers MCP
// through it, and SIGTERM stops every process it started (no orphan instance, no orphan Redis).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const COMMAND = fileURLToPath(new URL('../bin/cluster-example.mjs', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function accepts(url: URL): Promise<boolean> {
  const socket = createConnection({ host: url.hostname, port: Number(url.port) });
  const outcome = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
  });
  socket.destroy();
  return outcome;
}

describe('cluster-example command', () => {
  it('starts 2 instances behind the proxy, serves an initialize, and SIGTERM leaves no process behind', async () => {
    const child = spawn(process.execPath, [COMMAND, '--instances', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const url = await new Promise<URL>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /proxy listening on (\S+)/.exec(out);
        if (match?.[1] !== undefined) resolve(new URL(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`exited with ${String(code)}: ${err}`)));
    });
    const pids = [...err.matchAll(/pid (\d+)/g)].map((match) => Number(match[1]));
    const redisUrl = new URL(/redis-server at (\S+)/.exec(err)?.[1] ?? 'redis://invalid');
    expect(pids).toHaveLength(2);
    expect(pids.every(alive)).toBe(true);

    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toMatch(/\S+/);
    expect(await response.text()).toContain('statemcp-everything-server');

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    expect(pids.filter(alive)).toEqual([]);
    expect(await accepts(redisUrl)).toBe(false);
    expect(await accepts(url)).toBe(false);
  });
});
