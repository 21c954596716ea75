/**
 * Log level ordering (MCP 2025-11-25 server/utilities/logging): a message is sent when its level
 * is at or above the threshold.
 */
import { LOGGING_LEVELS, type LoggingLevel } from './wire-types.js';

const RANK: Readonly<Record<LoggingLevel, number>> = Object.freeze(
  Object.fromEntries(LOGGING_LEVELS.map((level, index) => [level, index])) as Record<LoggingLevel, number>,
);

/** True when `level` is at least as severe as `threshold` (no threshold: everything passes). */
export function passesLevel(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || RANK[level] >= RANK[threshold];
}

/** True when `value` is one of the eight MCP logging levels (`debug` … `emergency`). */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}
