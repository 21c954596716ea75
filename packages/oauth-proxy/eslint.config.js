import { statemcpLint } from '@statemcp/eslint-config';

export default statemcpLint(import.meta.dirname);
