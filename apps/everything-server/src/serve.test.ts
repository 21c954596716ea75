import { describe, expect, it } from 'vitest';
import { parseArgs } from './serve.js';

describe('parseArgs', () => {
  it('reads --stdio', () => {
    expect(parseArgs(['--stdio'])).toEqual({ kind: 'stdio' });
  });

  it('defaults HTTP to 127.0.0.1 and a free port', () => {
    expect(parseArgs(['--http'])).toEqual({ kind: 'http', port: 0, host: '127.0.0.1' });
    expect(parseArgs(['--http', '--port', '3000', '--host', 'localhost'])).toEqual({ kind: 'http', port: 3000, host: 'localhost' });
    expect(parseArgs(['--http', '--host', '0.0.0.0', '--allowed-host', 'mcp.local', '--allowed-host', '192.0.2.10'])).toEqual({
      kind: 'http',
      port: 0,
      host: '0.0.0.0',
      allowedHosts: ['mcp.local', '192.0.2.10'],
    });
    expect(() => parseArgs(['--stdio', '--allowed-host', 'mcp.local'])).toThrow(/--allowed-host needs --http/);
  });

  it('serves through the local Lambda Function URL with --lambda, over HTTP only', () => {
    expect(parseArgs(['--http', '--lambda'])).toEqual({ kind: 'http', port: 0, host: '127.0.0.1', lambda: true });
    expect(() => parseArgs(['--stdio', '--lambda'])).toThrow(/--lambda needs --http/);
  });

  it('reads the --auth flags', () => {
    expect(parseArgs(['--http', '--auth', 'https://as.example', '--auth-scope', 'mcp', '--auth-dpop-nonce'])).toEqual({
      kind: 'http',
      port: 0,
      host: '127.0.0.1',
      auth: { issuer: 'https://as.example', jwksUri: undefined, scopes: ['mcp'], dpop: true, dpopNonce: true, resource: undefined },
    });
    expect(() => parseArgs(['--stdio', '--auth', 'https://as.example'])).toThrow(/--auth needs --http/);
    expect(() => parseArgs(['--http', '--auth-dpop'])).toThrow(/need --auth ISSUER/);
  });

  it('reads the --redis flags, with the requestState key from --state-key or the environment', () => {
    const key = 'k'.repeat(32);
    expect(parseArgs(['--http', '--redis', 'redis://127.0.0.1:6390', '--instance-id', 'a', '--redis-prefix', 'demo:', '--state-key', key], {})).toEqual({
      kind: 'http',
      port: 0,
      host: '127.0.0.1',
      cluster: { redisUrl: 'redis://127.0.0.1:6390', instanceId: 'a', keyPrefix: 'demo:', stateKey: key },
    });
    const fromEnv = parseArgs(['--http', '--redis', 'redis://127.0.0.1:6390'], { STATEMCP_REQUEST_STATE_KEY: key });
    expect(fromEnv).toMatchObject({ cluster: { stateKey: key, keyPrefix: 'statemcp:' } });
    expect(fromEnv.kind === 'http' ? fromEnv.cluster?.instanceId : undefined).toMatch(/-\d+$/);
  });

  it('reads --redis-cluster: the nodes of a Redis Cluster instead of one Redis, never both', () => {
    const env = { STATEMCP_REQUEST_STATE_KEY: 'k'.repeat(32) };
    expect(parseArgs(['--http', '--redis-cluster', 'redis://127.0.0.1:7001,redis://127.0.0.1:7002', '--instance-id', 'a'], env)).toMatchObject({
      cluster: { redisUrl: 'redis://127.0.0.1:7001', redisCluster: ['redis://127.0.0.1:7001', 'redis://127.0.0.1:7002'], instanceId: 'a' },
    });
    expect(() => parseArgs(['--http', '--redis', 'redis://x', '--redis-cluster', 'redis://y'], env)).toThrow(/one of --redis and --redis-cluster/);
  });

  it('rejects --redis without --http, without a long enough key, and cluster flags without --redis', () => {
    const env = { STATEMCP_REQUEST_STATE_KEY: 'k'.repeat(32) };
    expect(() => parseArgs(['--stdio', '--redis', 'redis://x'], env)).toThrow(/--redis needs --http/);
    expect(() => parseArgs(['--http', '--redis', 'redis://x'], {})).toThrow(/shared requestState key/);
    expect(() => parseArgs(['--http', '--redis', 'redis://x', '--state-key', 'short'], {})).toThrow(/at least 32 bytes/);
    expect(() => parseArgs(['--http', '--instance-id', 'a'], env)).toThrow(/need --redis URL/);
  });

  it('rejects missing, conflicting and unknown arguments', () => {
    expect(() => parseArgs([])).toThrow(/usage/);
    expect(() => parseArgs(['--stdio', '--http'])).toThrow(/choose one/);
    expect(() => parseArgs(['--http', '--port'])).toThrow(/needs a value/);
    expect(() => parseArgs(['--http', '--port', 'x'])).toThrow(/invalid port/);
    expect(() => parseArgs(['--verbose'])).toThrow(/unknown argument/);
  });
});
