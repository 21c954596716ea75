/** Test helpers shared across statemcp packages. */
export { createOfficialBridge } from './official-bridge.js';
export { startRedisServer, testRedisUrl, uniquePrefix } from './redis-server.js';
export type { OfficialTransportLike } from './official-bridge.js';
export type { TestRedis } from './redis-server.js';
export { startRedisCluster } from './redis-cluster.js';
export type { ClusterNodeRole, RedisClusterOptions, TestClusterNode, TestRedisCluster } from './redis-cluster.js';
export { emulatedAwsLambda, startLambdaEmulator } from './lambda-emulator.js';
export type { EmulatedStreamMetadata, LambdaEmulator, LambdaEmulatorOptions, LambdaIntegration } from './lambda-emulator.js';
