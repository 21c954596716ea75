// The private redis-server of the tests lives in @statemcp/testing (apps/cluster-example uses it too).
export { startRedisServer, testRedisUrl, uniquePrefix } from '@statemcp/testing';
export type { TestRedis } from '@statemcp/testing';
