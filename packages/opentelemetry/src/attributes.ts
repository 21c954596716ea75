/**
 * The attribute names and metric names this package records: the OpenTelemetry semantic
 * conventions for MCP (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/, status
 * "Development") and the general attributes they reference. Spelled out here so the package
 * depends on `@opentelemetry/api` alone; the tests check each against
 * `@opentelemetry/semantic-conventions`.
 */
export const MCP_ATTRIBUTES = Object.freeze({
  methodName: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  errorType: 'error.type',
  responseStatusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  networkProtocolVersion: 'network.protocol.version',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  clientAddress: 'client.address',
} as const);

/** The metrics of the conventions: operation durations on each side, session durations. */
export const MCP_METRICS = Object.freeze({
  clientOperationDuration: 'mcp.client.operation.duration',
  serverOperationDuration: 'mcp.server.operation.duration',
  clientSessionDuration: 'mcp.client.session.duration',
  serverSessionDuration: 'mcp.server.session.duration',
} as const);

/** `gen_ai.operation.name` of a `tools/call`. */
export const EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a `tools/call` answered with `isError: true` (a tool error travels as a result). */
export const TOOL_ERROR = 'tool_error';

/** The histogram buckets the conventions advise for MCP durations, in seconds. */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
