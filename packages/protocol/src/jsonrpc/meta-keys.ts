/**
 * The `_meta` key grammar of 2025-06-18 and later (MCP 2025-11-25 basic/index §_meta): an optional prefix of
 * dot-separated labels ending in `/`, then a name. Labels start with a letter, end with a
 * letter or digit, and hold letters, digits and hyphens; a non-empty name starts and ends
 * alphanumeric and may hold `-`, `_`, `.` inside.
 *
 * Which prefixes are reserved for MCP changed: 2025-06-18 reserves any prefix with a label
 * `modelcontextprotocol` or `mcp` followed by another label; 2025-11-25 and later reserve a
 * prefix only when its second label is `modelcontextprotocol` or `mcp`.
 */
import { getRevision } from '../revisions/registry.js';

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

function split(key: string): { labels: string[] | undefined; name: string } {
  const slash = key.lastIndexOf('/');
  if (slash === -1) return { labels: undefined, name: key };
  return { labels: key.slice(0, slash).split('.'), name: key.slice(slash + 1) };
}

/** True when `key` follows the `_meta` key grammar (MCP 2025-11-25 basic/index §_meta). */
export function isValidMetaKey(key: string): boolean {
  const { labels, name } = split(key);
  if (labels !== undefined && !labels.every((label) => LABEL.test(label))) return false;
  return NAME.test(name);
}

/** True when `key`'s prefix is reserved for the protocol in `version` (MCP 2025-11-25 basic/index §_meta). */
export function isReservedMetaKey(key: string, version: string): boolean {
  const { labels } = split(key);
  if (labels === undefined) return false;
  const lower = labels.map((label) => label.toLowerCase());
  if (getRevision(version)?.features.reservedMetaPrefix === 'second-label') {
    const second = lower[1];
    return second === 'modelcontextprotocol' || second === 'mcp';
  }
  return lower.some((label, index) => (label === 'modelcontextprotocol' || label === 'mcp') && index < lower.length - 1);
}
