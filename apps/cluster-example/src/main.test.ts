import { describe, expect, it } from 'vitest';
import { readOptions } from './main.js';

describe('readOptions', () => {
  it('defaults to 3 instances, a private Redis and a free port', () => {
    expect(readOptions([])).toEqual({ instances: 3, port: 0 });
  });

  it('reads --instances, --redis and --port', () => {
    expect(readOptions(['--instances', '2', '--redis', 'redis://127.0.0.1:6390', '--port', '3000'])).toEqual({ instances: 2, port: 3000, redisUrl: 'redis://127.0.0.1:6390' });
  });

  it('reads --redis-cluster: bare, a private Redis Cluster; with a value, its nodes; never with --redis', () => {
    expect(readOptions(['--redis-cluster'])).toEqual({ instances: 3, port: 0, redisCluster: true });
    expect(readOptions(['--redis-cluster', '--port', '3000'])).toEqual({ instances: 3, port: 3000, redisCluster: true });
    expect(readOptions(['--redis-cluster', 'redis://127.0.0.1:7001,redis://127.0.0.1:7002'])).toEqual({ instances: 3, port: 0, redisCluster: ['redis://127.0.0.1:7001', 'redis://127.0.0.1:7002'] });
    expect(() => readOptions(['--redis', 'redis://x', '--redis-cluster'])).toThrow(/one of --redis and --redis-cluster/);
  });

  it('rejects bad counts, ports and unknown flags', () => {
    expect(() => readOptions(['--instances', '0'])).toThrow(/positive integer/);
    expect(() => readOptions(['--port', 'x'])).toThrow(/invalid --port/);
    expect(() => readOptions(['--verbose'])).toThrow(/Unknown option/);
  });
});
