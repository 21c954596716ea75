// The whole OAuth walk-through against a real oidc-provider and protected server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { runAuthTour } from '../src/tour.js';

describe('runAuthTour', () => {
  it('challenges, discovers, gets a token for the resource, steps up a scope and is refused elsewhere', async () => {
    const lines: string[] = [];
    const ok = await runAuthTour((line) => lines.push(line));
    const output = lines.join('\n');
    expect(ok, output).toBe(true);
    expect(output).toMatch(/no token → 401, WWW-Authenticate: Bearer scope="mcp", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
    expect(output).toContain('tools/call whoami → "example-agent with scopes [mcp]"');
    expect(output).toMatch(/reset_counter with scope mcp → 403, WWW-Authenticate: Bearer error="insufficient_scope", error_description="[^"]+", scope="mcp admin"/);
    expect(output).toMatch(/another resource .* → 401, error="invalid_token"/);
  });
});
