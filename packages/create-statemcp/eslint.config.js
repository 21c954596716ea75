import { statemcpLint } from '@statemcp/eslint-config';

// .generated/: projects the tests write and remove (their own tsconfig, not this package's).
export default [...statemcpLint(import.meta.dirname), { ignores: ['.generated/**'] }];
