import { describe, expect, it } from 'vitest';
import { isReservedMetaKey, isValidMetaKey } from './meta-keys.js';

describe('meta keys', () => {
  it('keys the SDK generates follow the prefix/name grammar', () => {
    for (const key of ['progressToken', 'io.modelcontextprotocol/related-task', 'io.modelcontextprotocol/model-immediate-response', 'com.example/x_y.z', 'a/']) {
      expect(isValidMetaKey(key), key).toBe(true);
    }
    for (const key of ['-bad', 'io..x/name', '1abc/name', 'io.example-/x', 'name-', 'io.example/_x']) {
      expect(isValidMetaKey(key), key).toBe(false);
    }
  });

  it('2025-11-25 reserves io.modelcontextprotocol/ and dev.mcp/ but not com.example.mcp/', () => {
    expect(isReservedMetaKey('io.modelcontextprotocol/related-task', '2025-11-25')).toBe(true);
    expect(isReservedMetaKey('dev.mcp/x', '2025-11-25')).toBe(true);
    expect(isReservedMetaKey('com.example.mcp/x', '2025-11-25')).toBe(false);
    expect(isReservedMetaKey('progressToken', '2025-11-25')).toBe(false);
  });

  it('2025-06-18 reserves any prefix with an mcp label followed by another label', () => {
    expect(isReservedMetaKey('modelcontextprotocol.io/x', '2025-06-18')).toBe(true);
    expect(isReservedMetaKey('tools.mcp.com/x', '2025-06-18')).toBe(true);
    expect(isReservedMetaKey('example.mcp/x', '2025-06-18')).toBe(false);
  });
});
