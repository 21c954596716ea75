#!/usr/bin/env node
// create-statemcp: `npm create statemcp@latest [name] [flags]` writes a new statemcp MCP server project.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
