import { describe, expect, it } from 'vitest';
import { requiredScopesFor } from './scope-policy.js';

const policy = { requiredScopes: ['mcp'], methodScopes: { 'resources/read': ['files:read'] }, toolScopes: { wipe: ['admin'], toString: ['odd'] } };

describe('requiredScopesFor', () => {
  it('adds the scopes of the method and of the tool called', () => {
    expect(requiredScopesFor(policy, [{ method: 'tools/call', params: { name: 'wipe' } }, { method: 'resources/read', params: {} }])).toEqual(['mcp', 'admin', 'files:read']);
  });

  it('adds nothing for method and tool names that are Object.prototype members but not in the tables', () => {
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(requiredScopesFor(policy, [{ method: name, params: {} }, { method: 'tools/call', params: { name } }])).toEqual(['mcp']);
    }
  });

  it('uses the entry of a tool registered under such a name', () => {
    expect(requiredScopesFor(policy, [{ method: 'tools/call', params: { name: 'toString' } }])).toEqual(['mcp', 'odd']);
  });
});
