import { describe, expect, it } from 'vitest';
import { run } from './run.js';
import { AUTH_SCENARIOS } from './auth-scenarios.js';
import { SCENARIOS } from './scenarios.js';

function runWith(argv: string[], env: Record<string, string>): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  return run({ argv, env, log: (line) => lines.push(line) }).then((code) => ({ code, lines }));
}

describe('run', () => {
  it('implements the core client scenarios', () => {
    expect(Object.keys(SCENARIOS)).toEqual(expect.arrayContaining(['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry']));
  });

  it('exits 2 for an unknown scenario without connecting', async () => {
    const { code, lines } = await runWith(['http://127.0.0.1:1/mcp'], { MCP_CONFORMANCE_SCENARIO: 'no-such-scenario' });
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('unsupported scenario: no-such-scenario');
  });

  it('exits 2 without a URL as the last argument or without a scenario', async () => {
    expect((await runWith([], { MCP_CONFORMANCE_SCENARIO: 'initialize' })).code).toBe(2);
    expect((await runWith(['not a url'], { MCP_CONFORMANCE_SCENARIO: 'initialize' })).code).toBe(2);
    expect((await runWith(['http://127.0.0.1:1/mcp'], {})).code).toBe(2);
  });

  it('exits 2 for a protocol revision it does not speak', async () => {
    const { code, lines } = await runWith(['http://127.0.0.1:1/mcp'], { MCP_CONFORMANCE_SCENARIO: 'tools_call', MCP_CONFORMANCE_PROTOCOL_VERSION: '1999-01-01' });
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('1999-01-01 is not supported');
  });

  it('implements the 2026-07-28 client scenarios', () => {
    expect(Object.keys(SCENARIOS)).toEqual(
      expect.arrayContaining(['request-metadata', 'http-standard-headers', 'http-custom-headers', 'http-invalid-tool-headers', 'sep-2322-client-request-state', 'json-schema-ref-no-deref']),
    );
  });

  it('implements the auth scenarios, extensions included', () => {
    expect(Object.keys(AUTH_SCENARIOS)).toEqual(
      expect.arrayContaining(['auth/metadata-default', 'auth/scope-step-up', 'auth/dpop', 'auth/dpop-nonce', 'auth/wif-jwt-bearer', 'auth/enterprise-managed-authorization', 'auth/client-credentials-jwt']),
    );
  });

  it('exits 1 when the scenario fails', async () => {
    const { code } = await runWith(['http://127.0.0.1:1/mcp'], { MCP_CONFORMANCE_SCENARIO: 'initialize' });
    expect(code).toBe(1);
  });
});
