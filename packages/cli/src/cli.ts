/**
 * The `statemcp` command's entry point: `statemcp dev …` and `statemcp install …`.
 */
import { runDev, DEV_USAGE } from './dev/dev-command.js';
import { McpError } from '@statemcp/protocol';
import { describeChange, installServer, INSTALL_USAGE, parseInstallArgs } from './install/install-command.js';

const USAGE = `Usage: statemcp <command> [options]

Commands:
  dev <entry.ts>   run a TypeScript MCP server and reload it on every edit, keeping client sessions
  install          add a server to Claude Desktop, Claude Code, Cursor, VS Code or Windsurf

statemcp <command> --help shows a command's options.`;

async function runInstall(argv: readonly string[]): Promise<number> {
  const options = parseInstallArgs(argv);
  const changes = await installServer(options);
  for (const change of changes) console.log(describeChange(change, options.dryRun === true));
  if (options.dryRun === true) console.log('dry run: nothing was written');
  return 0;
}

/** Runs the command in `argv` (without node and the script); resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const help = rest.includes('--help') || rest.includes('-h');
  try {
    switch (command) {
      case 'dev':
        if (help) return (console.log(DEV_USAGE), 0);
        return await runDev(rest);
      case 'install':
        if (help) return (console.log(INSTALL_USAGE), 0);
        return await runInstall(rest);
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        console.log(USAGE);
        return command === undefined ? 1 : 0;
      default:
        console.error(`statemcp: unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
        return 1;
    }
  } catch (error) {
    const message = error instanceof McpError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`statemcp ${command}: ${message}`);
    return 1;
  }
}
