// Lets Node run this app straight from its TypeScript source, no build step: tsx compiles on the
// fly and the `@statemcp/source` export condition makes workspace packages resolve to their src/.
// Used as `node --import ./bin/register.mjs src/file.ts` (the quickstart starts its example
// servers that way) and imported by bin/auth-example.mjs.
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
