import { describe, expect, it } from 'vitest';
import { parseInspectArgs } from './inspect-command.js';

describe('parseInspectArgs', () => {
  it('reads a stdio server command after --', () => {
    expect(parseInspectArgs(['--', 'node', 'server.js', '--flag'])).toEqual({ target: { kind: 'stdio', command: 'node', args: ['server.js', '--flag'] }, port: 0 });
  });

  it('reads a stdio server command without --, and a port', () => {
    expect(parseInspectArgs(['--port', '4100', 'npx', 'some-server'])).toEqual({ target: { kind: 'stdio', command: 'npx', args: ['some-server'] }, port: 4100 });
  });

  it('reads a Streamable HTTP URL', () => {
    expect(parseInspectArgs(['--url', 'http://127.0.0.1:3000/mcp'])).toEqual({ target: { kind: 'http', url: 'http://127.0.0.1:3000/mcp' }, port: 0 });
  });

  it('refuses what it cannot read, with the usage', () => {
    expect(() => parseInspectArgs([])).toThrow(/No server to inspect[\s\S]*usage:/);
    expect(() => parseInspectArgs(['--url'])).toThrow(/--url needs a value/);
    expect(() => parseInspectArgs(['--url', 'ftp://x'])).toThrow(/http\(s\) URL/);
    expect(() => parseInspectArgs(['--url', 'http://x/mcp', '--', 'node'])).toThrow(/not both/);
    expect(() => parseInspectArgs(['--port', '70000', 'node'])).toThrow(/0–65535/);
    expect(() => parseInspectArgs(['--verbose', 'node'])).toThrow(/Unknown option --verbose/);
  });
});
