#!/usr/bin/env node
// statemcp-inspect: connect to an MCP server and watch its lifecycle live in the browser.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
