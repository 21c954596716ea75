import { statemcpVitest } from '@statemcp/vitest-config';

export default statemcpVitest();
