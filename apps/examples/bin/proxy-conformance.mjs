#!/usr/bin/env node
// `pnpm conformance:oauth-proxy`: the official conformance suite's authorization-server scenarios
// against @statemcp/oauth-proxy (src/authorization/proxy-conformance.ts), run from the TypeScript
// source: tsx compiles on the fly and the `@statemcp/source` condition resolves workspace packages
// to their src/.
//   node apps/examples/bin/proxy-conformance.mjs [--output-dir DIR]
import { register } from 'node:module';
import { parseArgs } from 'node:util';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register(
  'data:text/javascript,' +
    encodeURIComponent(
      'export function resolve(specifier, context, next) {' +
        " return next(specifier, { ...context, conditions: [...new Set([...context.conditions, '@statemcp/source'])] }); }",
    ),
);

const { values } = parseArgs({ options: { 'output-dir': { type: 'string' } } });
const { runProxyConformance } = await import('../src/authorization/proxy-conformance.ts');
process.exitCode = await runProxyConformance(values['output-dir']);
