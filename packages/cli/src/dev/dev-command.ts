/**
 * `statemcp dev <entry.ts>`: parses the command line, starts the dev server, prints where it
 * serves, and stops cleanly — no child process, no open port — on Ctrl-C (SIGINT), SIGTERM, or
 * when the stdio client closes stdin.
 */
import { UsageError } from '../errors.js';
import { startDevServer, type DevServerOptions } from './dev-server.js';

export const DEV_USAGE = `Usage: statemcp dev <entry.ts> [--stdio] [--http] [--port N] [--no-inspector] [--debounce MS]

Runs an MCP server from a TypeScript (or JavaScript) module with no build step and reloads it
on every change in the entry's folder without dropping client sessions. The module
default-exports a function (server) => { server.registerTool(...) ... }.

  --stdio         serve one client over stdin/stdout
  --http          serve Streamable HTTP on 127.0.0.1
  --port N        the HTTP port (default: a free one; implies --http)
  --no-inspector  do not start the inspector page
  --debounce MS   quiet time after the last change before reloading (default 100)

With neither --stdio nor --http: HTTP, plus stdio when stdin is not a terminal (a client
started this process).`;

/** Parses the arguments after `statemcp dev`; `stdinIsTTY` decides the default transports. */
export function parseDevArgs(argv: readonly string[], stdinIsTTY: boolean): DevServerOptions {
  let entry: string | undefined;
  let stdio = false;
  let http = false;
  let port: number | undefined;
  let inspector = true;
  let debounceMs: number | undefined;
  const number = (flag: string, text: string | undefined, max: number): number => {
    const value = Number(text);
    if (text === undefined || text.trim() === '' || !Number.isInteger(value) || value < 0 || value > max) throw new UsageError(`${flag} takes a whole number from 0 to ${max}`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    switch (arg) {
      case '--stdio':
        stdio = true;
        break;
      case '--http':
        http = true;
        break;
      case '--port':
        port = number(arg, argv[++i], 65_535);
        http = true;
        break;
      case '--no-inspector':
        inspector = false;
        break;
      case '--debounce':
        debounceMs = number(arg, argv[++i], 60_000);
        break;
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
        if (entry !== undefined) throw new UsageError(`one entry module, got ${JSON.stringify(entry)} and ${JSON.stringify(arg)}`);
        entry = arg;
    }
  }
  if (entry === undefined) throw new UsageError('name the entry module: statemcp dev src/server.ts');
  if (!stdio && !http) {
    http = true;
    stdio = !stdinIsTTY;
  }
  return {
    entry,
    stdio,
    inspector,
    ...(http ? { http: port === undefined ? {} : { port } } : {}),
    ...(debounceMs === undefined ? {} : { debounceMs }),
  };
}

/** Runs `statemcp dev`; resolves with the exit code once stopped. */
export async function runDev(argv: readonly string[]): Promise<number> {
  const options = parseDevArgs(argv, process.stdin.isTTY === true);
  const dev = await startDevServer(options);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const over = options.stdio === true ? ' over stdio' : '';
  say(dev.version === 0 ? `statemcp dev: ${options.entry} did not load; serving nothing${over} until it does` : `statemcp dev: serving ${options.entry} (v${dev.version})${over}`);
  if (dev.httpUrl !== undefined) say(`statemcp dev: Streamable HTTP at ${dev.httpUrl.href}`);
  if (dev.inspectorUrl !== undefined) say(`statemcp dev: inspector at ${dev.inspectorUrl}`);
  say('statemcp dev: watching for changes; Ctrl-C to stop');
  const stopSignals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  let onSignal: (() => void) | undefined;
  const signalled = new Promise<void>((resolve) => {
    onSignal = resolve;
    for (const signal of stopSignals) process.once(signal, resolve);
  });
  await Promise.race([signalled, dev.stdioClosed]);
  for (const signal of stopSignals) if (onSignal !== undefined) process.removeListener(signal, onSignal);
  await dev.close();
  say('statemcp dev: stopped');
  return 0;
}
