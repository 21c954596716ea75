/**
 * The consent page: the user approves one MCP client before the proxy sends them to the upstream
 * identity provider with the proxy's own client id. Without it, any client that registers
 * itself could ride on an earlier upstream consent (2025-11-25, Basic / Security Best Practices,
 * "Confused Deputy Problem": per-client consent before the third-party flow, the client named,
 * CSRF protection, no framing). The form carries a token bound to the interaction (an HMAC with
 * the proxy's cookie key), and the page is served with `frame-ancestors 'none'`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What the consent page shows, and where its form goes. */
export interface ConsentView {
  /** The client's `client_name`, when it gave one (self-asserted by a registered client). */
  readonly clientName: string | undefined;
  /** The `client_id`: an https URL for a client ID metadata document, else the proxy's id. */
  readonly clientId: string;
  /** Where the authorization answer will be sent: the one redirect URI of this request. */
  readonly redirectUri: string;
  /** The resources (MCP servers) the token will be for. */
  readonly resources: readonly string[];
  /** The scopes asked for. */
  readonly scopes: readonly string[];
  /** The upstream identity provider the user will sign in with. */
  readonly upstreamIssuer: string;
  /** The form's target (POST). */
  readonly action: string;
  /** The CSRF token the form must send back as the `csrf` field. */
  readonly csrf: string;
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The default consent page: plain HTML, no script, the client named, Approve and Deny. */
export function renderConsentPage(view: ConsentView): string {
  const name = view.clientName ?? view.clientId;
  const list = (items: readonly string[], empty: string): string =>
    items.length === 0 ? `<p>${escapeHtml(empty)}</p>` : `<ul>${items.map((item) => `<li><code>${escapeHtml(item)}</code></li>`).join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow ${escapeHtml(name)}?</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{word-break:break-all}button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}</style>
</head>
<body>
<h1>Allow ${escapeHtml(name)}?</h1>
<p>The application <strong>${escapeHtml(name)}</strong>${view.clientName === undefined ? '' : ` (client <code>${escapeHtml(view.clientId)}</code>)`} asks to use these MCP servers on your behalf:</p>
${list(view.resources, 'No MCP server named.')}
<p>Scopes:</p>
${list(view.scopes, 'None.')}
<p>If you allow it, you sign in with <code>${escapeHtml(view.upstreamIssuer)}</code> and the answer goes to <code>${escapeHtml(view.redirectUri)}</code>. Allow it only if you started this sign-in from that application.</p>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body>
</html>
`;
}

/** Headers of every HTML page of the proxy: no caching, no framing, no script. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
});

/** The CSRF token of an interaction: HMAC-SHA256 of its uid under `key`. */
export function csrfToken(key: string, interactionUid: string): string {
  return createHmac('sha256', key).update(`consent:${interactionUid}`).digest('base64url');
}

/** True when `token` is the CSRF token of the interaction under one of `keys` (the newest first). */
export function checkCsrfToken(keys: readonly string[], interactionUid: string, token: string): boolean {
  const given = Buffer.from(token);
  return keys.some((key) => {
    const expected = Buffer.from(csrfToken(key, interactionUid));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** A minimal page for a sign-in that cannot go on (expired, unknown, refused). */
export function renderMessagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</body>
</html>
`;
}
