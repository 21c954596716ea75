import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { parseDevArgs } from './dev-command.js';

describe('parseDevArgs', () => {
  it('serves HTTP, plus stdio when stdin is not a terminal, by default', () => {
    expect(parseDevArgs(['src/server.ts'], false)).toEqual({ entry: 'src/server.ts', stdio: true, inspector: true, http: {} });
    expect(parseDevArgs(['src/server.ts'], true)).toEqual({ entry: 'src/server.ts', stdio: false, inspector: true, http: {} });
  });

  it('serves only what --stdio and --http ask for', () => {
    expect(parseDevArgs(['--stdio', 'a.ts'], true)).toEqual({ entry: 'a.ts', stdio: true, inspector: true });
    expect(parseDevArgs(['a.ts', '--http'], false)).toEqual({ entry: 'a.ts', stdio: false, inspector: true, http: {} });
  });

  it('takes a port (implying --http), --no-inspector and --debounce', () => {
    expect(parseDevArgs(['a.ts', '--port', '3000', '--no-inspector', '--debounce', '250'], false)).toEqual({
      entry: 'a.ts',
      stdio: false,
      inspector: false,
      http: { port: 3000 },
      debounceMs: 250,
    });
  });

  it.each([
    [[], /name the entry module/],
    [['a.ts', 'b.ts'], /one entry module/],
    [['a.ts', '--port', 'x'], /--port takes a whole number/],
    [['a.ts', '--port', '70000'], /--port takes a whole number/],
    [['a.ts', '--watch'], /unknown option/],
  ])('refuses %j with a UsageError', (argv, message) => {
    expect(() => parseDevArgs(argv, true)).toThrow(message);
    expect(() => parseDevArgs(argv, true)).toThrow(UsageError);
  });
});
