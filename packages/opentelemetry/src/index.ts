/**
 * @statemcp/opentelemetry — spans and metrics for statemcp servers and clients, as the
 * OpenTelemetry semantic conventions for MCP define them, from one middleware. It depends on
 * `@opentelemetry/api` only (a peer): bring your own SDK and exporter.
 */
export { INSTRUMENTATION_NAME, McpTelemetry } from './telemetry.js';
export type { McpTelemetryOptions, NetworkAttributes } from './telemetry.js';
export { DURATION_BUCKETS, EXECUTE_TOOL, MCP_ATTRIBUTES, MCP_METRICS, TOOL_ERROR } from './attributes.js';
export { TASK_QUEUE_ATTRIBUTES, TASK_QUEUE_METRICS, TaskQueueMetrics } from './task-queue-metrics.js';
export type { TaskQueueMetricsOptions } from './task-queue-metrics.js';
