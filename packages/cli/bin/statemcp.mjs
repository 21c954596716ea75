#!/usr/bin/env node
// statemcp: `statemcp dev <entry.ts>` (a reloading dev server) and `statemcp install` (client configs).
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
