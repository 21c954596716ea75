import { AuthRequiredError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { HttpResponseError, briefly, errorForStatus, messageExcerpt } from './http-errors.js';

const PAGE = `<!DOCTYPE html><html><head><title>Not here</title><style>body { color: red }</style></head><body><h1>Not Found</h1>${'<p>The requested URL was not found. '.repeat(50)}<footer>END</footer></body></html>`;

describe('messageExcerpt', () => {
  it('reads an HTML page as its text, cut to a short excerpt', () => {
    const excerpt = messageExcerpt(PAGE);
    expect(excerpt.startsWith('Not here Not Found The requested URL was not found.')).toBe(true);
    expect(excerpt).not.toContain('<');
    expect(excerpt).not.toContain('color: red');
    expect(excerpt).not.toContain('END');
    expect(excerpt.length).toBeLessThanOrEqual(161);
  });

  it('keeps a short plain body as it is', () => {
    expect(messageExcerpt('  Session not found \n')).toBe('Session not found');
  });
});

describe('errorForStatus', () => {
  it('names the method, URL, status and a short excerpt once, and keeps 2 KiB of the body on the cause', () => {
    const error = errorForStatus('POST', 'http://127.0.0.1/wrong', new Response(PAGE, { status: 404, statusText: 'Not Found' }), PAGE.slice(0, 2048));
    expect(error.message.startsWith('POST http://127.0.0.1/wrong answered HTTP 404 Not Found: Not here Not Found')).toBe(true);
    expect(error.message.length).toBeLessThan(300);
    expect(error.cause).toBeInstanceOf(HttpResponseError);
    expect((error.cause as HttpResponseError).body).toBe(PAGE.slice(0, 2048));
    expect(briefly(error)).toBe('POST http://127.0.0.1/wrong answered HTTP 404');
  });

  it('makes 401 an AuthRequiredError carrying WWW-Authenticate', () => {
    const error = errorForStatus('POST', 'http://h/mcp', new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer realm="x"' } }), '');
    expect(error).toBeInstanceOf(AuthRequiredError);
    expect(error.message).toContain('Bearer realm="x"');
  });
});
