import { describe, expect, it } from 'vitest';
import { parseArgs } from './serve.js';

describe('parseArgs', () => {
  it('reads --stdio', () => {
    expect(parseArgs(['--stdio'])).toEqual({ kind: 'stdio' });
  });

  it('defaults HTTP to 127.0.0.1 and a free port', () => {
    expect(parseArgs(['--http'])).toEqual({ kind: 'http', port: 0, host: '127.0.0.1' });
    expect(parseArgs(['--http', '--port', '3000', '--host', 'localhost'])).toEqual({ kind: 'http', port: 3000, host: 'localhost' });
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

  it('rejects missing, conflicting and unknown arguments', () => {
    expect(() => parseArgs([])).toThrow(/usage/);
    expect(() => parseArgs(['--stdio', '--http'])).toThrow(/choose one/);
    expect(() => parseArgs(['--http', '--port'])).toThrow(/needs a value/);
    expect(() => parseArgs(['--http', '--port', 'x'])).toThrow(/invalid port/);
    expect(() => parseArgs(['--verbose'])).toThrow(/unknown argument/);
  });
});
