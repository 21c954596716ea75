/**
 * The `statemcp-inspect` entry point: parse, connect, print the page's address, and close
 * everything on Ctrl-C. When the server goes away the page stays up with its history.
 * Everything printed that a server chose (its name and version, error messages) goes
 * through `terminalText` first: a server cannot drive the user's terminal.
 */
import { INSPECT_USAGE, parseInspectArgs, runInspect } from './inspect-command.js';
import { terminalText } from './terminal-text.js';

/** Runs the command; resolves with the process exit code once the inspection ends. */
export async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(INSPECT_USAGE);
    return 0;
  }
  let session;
  try {
    session = await runInspect(parseInspectArgs(argv));
  } catch (error) {
    console.error(`statemcp-inspect: ${terminalText(error instanceof Error ? error.message : String(error), { keepLines: true })}`);
    return 1;
  }
  // Listening before saying so: a Ctrl-C right after the prompt closes gracefully too.
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const server = session.client.serverInfo;
  console.log(terminalText(`connected to ${server?.name ?? 'server'} ${server?.version ?? ''}`.trimEnd()));
  console.log(`inspector: ${session.inspector.url}`);
  console.log('Ctrl-C to close the connection and stop.');
  let stopping = false;
  void session.client.closed.then((info) => {
    if (!stopping) console.log(terminalText(`the connection closed (${info.reason}); the page keeps its history until Ctrl-C`));
  });
  await stop;
  stopping = true;
  await session.close();
  return 0;
}
