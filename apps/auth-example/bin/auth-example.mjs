#!/usr/bin/env node
// `pnpm demo:auth`: runs the OAuth example from its TypeScript source (see register.mjs).
import './register.mjs';

await import('../src/main.ts');
