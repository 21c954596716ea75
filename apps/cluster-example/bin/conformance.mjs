#!/usr/bin/env node
// Runs the app straight from its TypeScript source, no build step: tsx compiles on the fly and
// the `@statemcp/source` export condition makes the workspace packages resolve to their src/.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
// Registered last, so it runs first: every resolution also matches the source condition.
register(
  'data:text/javascript,' +
    encodeURIComponent(
      'export function resolve(specifier, context, next) {' +
        " return next(specifier, { ...context, conditions: [...new Set([...context.conditions, '@statemcp/source'])] }); }",
    ),
);
await import('../src/conformance.ts');
