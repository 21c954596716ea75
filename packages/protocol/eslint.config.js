import { statemcpLint } from '@statemcp/eslint-config';

export default [
  ...statemcpLint(import.meta.dirname),
  {
    // `import { z } from 'zod'` binds zod's namespace object as a value, and a bundler then keeps
    // every export of it, all locales included (≈450 KB of a browser client's 660 KB minified,
    // issue 39); `import * as z from 'zod'` lets it keep only what the schemas use.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/test-*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^zod/][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "Import zod as `import * as z from 'zod'`: a named `z` makes bundlers keep all of zod (tooling/scripts/bundle-size.mjs).",
        },
      ],
    },
  },
];
