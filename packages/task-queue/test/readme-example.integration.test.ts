import { readFileSync } from 'node:fs';
import { Client } from '@statemcp/client';
import { InMemoryTransport, TASKS_EXTENSION_ID } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { startRedisServer, type TestRedis } from '@statemcp/testing';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue, TaskWorker } from '../src/index.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

describe('README Example section', () => {
  it('runs the example against a real Redis (transpiled, its imports bound)', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /## Example\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const imports = block.split('\n').filter((line) => line.startsWith('import '));
    expect(imports).toHaveLength(4);
    const source = block
      .split('\n')
      .filter((line) => !line.startsWith('import '))
      .join('\n');
    const body = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const lines: unknown[][] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
    const names = ['Client', 'InMemoryTransport', 'TASKS_EXTENSION_ID', 'McpServer', 'TaskQueue', 'TaskWorker', 'process', 'console'];
    const run = new AsyncFunction(...names, body);
    await run(Client, InMemoryTransport, TASKS_EXTENSION_ID, McpServer, TaskQueue, TaskWorker, { env: { REDIS_URL: redis.url } }, { log: (...args: unknown[]) => lines.push(args) });
    expect(lines).toEqual([[[{ type: 'text', text: '3 pages' }]]]);
  });
});
