import { describe, expect, it } from 'vitest';
import { readOptions } from './main.js';

describe('readOptions', () => {
  it('defaults to 3 instances, a private Redis and a free port', () => {
    expect(readOptions([])).toEqual({ instances: 3, port: 0 });
  });

  it('reads --instances, --redis and --port', () => {
    expect(readOptions(['--instances', '2', '--redis', 'redis://127.0.0.1:6390', '--port', '3000'])).toEqual({ instances: 2, port: 3000, redisUrl: 'redis://127.0.0.1:6390' });
  });

  it('rejects bad counts, ports and unknown flags', () => {
    expect(() => readOptions(['--instances', '0'])).toThrow(/positive integer/);
    expect(() => readOptions(['--port', 'x'])).toThrow(/invalid --port/);
    expect(() => readOptions(['--verbose'])).toThrow(/Unknown option/);
  });
});
