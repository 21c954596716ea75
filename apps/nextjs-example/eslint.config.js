import { statemcpLint } from '@statemcp/eslint-config';

// `.next/` and `next-env.d.ts` are written by `next build`.
export default [{ ignores: ['.next/**', 'next-env.d.ts'] }, ...statemcpLint(import.meta.dirname)];
