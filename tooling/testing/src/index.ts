/** Test helpers shared across statemcp packages. */
export { createOfficialBridge } from './official-bridge.js';
export type { OfficialTransportLike } from './official-bridge.js';
