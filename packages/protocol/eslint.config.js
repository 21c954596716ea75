import { statemcpLint } from '@statemcp/eslint-config';

export default [
  ...statemcpLint(import.meta.dirname),
  {
    // The wire schemas are written with zod/mini: a browser bundle then keeps only the zod
    // functions they call (zod's classic API brings its JSON Schema converter, and a named
    // `import { z }` every locale: 661 KB of a browser client before, 245 KB after; issue 39).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/test-*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Write protocol schemas with 'zod/mini' (tooling/scripts/bundle-size.mjs measures why).", allowTypeImports: true }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^zod/][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "Import zod as a namespace (`import * as z from 'zod/mini'`): a named `z` makes bundlers keep all of zod.",
        },
      ],
    },
  },
];
