#!/usr/bin/env node
// `pnpm demo`: runs the quickstart from its TypeScript source (see register.mjs).
import './register.mjs';

await import('../src/main.ts');
