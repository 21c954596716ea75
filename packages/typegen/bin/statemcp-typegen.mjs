#!/usr/bin/env node
// statemcp-typegen: connect to an MCP server and write a TypeScript module of its definitions.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
