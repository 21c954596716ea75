import { describe, expect, it } from 'vitest';
import { checkCsrfToken, csrfToken, escapeHtml, renderConsentPage, type ConsentView } from './consent-page.js';

const VIEW: ConsentView = {
  clientName: '<script>alert(1)</script> "agent"',
  clientId: 'abc123',
  redirectUri: 'http://127.0.0.1:33418/callback?x=1&y=2',
  resources: ['https://mcp.example.com/mcp'],
  scopes: ['mcp', 'offline_access'],
  upstreamIssuer: 'https://accounts.example.com',
  action: '/interaction/uid-1/confirm',
  csrf: 'token-1',
};

describe('renderConsentPage', () => {
  it('names the client, its redirect URI, the resources and scopes, with everything escaped', () => {
    const html = renderConsentPage(VIEW);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#34;agent&#34;');
    expect(html).toContain('http://127.0.0.1:33418/callback?x=1&#38;y=2');
    expect(html).toContain('<code>https://mcp.example.com/mcp</code>');
    expect(html).toContain('<code>offline_access</code>');
    expect(html).toContain('<form method="post" action="/interaction/uid-1/confirm">');
    expect(html).toContain('<input type="hidden" name="csrf" value="token-1">');
  });

  it('shows the client id when the client gave no name', () => {
    const html = renderConsentPage({ ...VIEW, clientName: undefined, clientId: 'https://agent.example/client.json' });
    expect(html).toContain('<title>Allow https://agent.example/client.json?</title>');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href='x'>"&"</a>`)).toBe('&#60;a href=&#39;x&#39;&#62;&#34;&#38;&#34;&#60;/a&#62;');
  });
});

describe('checkCsrfToken', () => {
  it('accepts the token of the interaction under the current or an older key', () => {
    const token = csrfToken('old-key', 'uid-1');
    expect(checkCsrfToken(['new-key', 'old-key'], 'uid-1', token)).toBe(true);
    expect(checkCsrfToken(['new-key'], 'uid-1', csrfToken('new-key', 'uid-1'))).toBe(true);
  });

  it('refuses the token of another interaction, under another key, or empty', () => {
    expect(checkCsrfToken(['key'], 'uid-2', csrfToken('key', 'uid-1'))).toBe(false);
    expect(checkCsrfToken(['key'], 'uid-1', csrfToken('other', 'uid-1'))).toBe(false);
    expect(checkCsrfToken(['key'], 'uid-1', '')).toBe(false);
  });
});
