// Runs every example the guides show and checks what it printed.
import { describe, expect, it } from 'vitest';
import { main as authorization } from './authorization.js';
import { main as errors } from './errors.js';
import { main as gateway } from './gateway.js';
import { main as lifecycle } from './lifecycle.js';
import { main as longRunning } from './long-running.js';
import { main as oauthProxy } from './oauth-proxy.js';
import { main as prompts } from './prompts.js';
import { main as resources } from './resources.js';
import { main as samplingElicitation } from './sampling-elicitation.js';
import { main as skills } from './skills.js';
import { main as statelessHttp } from './stateless-http.js';
import { main as tasksExtension } from './tasks-extension.js';
import { main as tools } from './tools.js';
import { main as websocket } from './websocket.js';

async function run(main: (log: (line: string) => void) => Promise<void>): Promise<string> {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  return lines.join('\n');
}

describe('the guides’ examples', () => {
  it('tools: structured output, a tool error, invalid arguments and a protocol error', async () => {
    const output = await run(tools);
    expect(output).toContain('divide(6, 3): {"quotient":2}');
    expect(output).toContain('divide(1, 0): isError=true {"type":"text","text":"Cannot divide by zero"}');
    expect(output).toContain("divide('six', 3): isError=true");
    expect(output).toContain('lookup: JsonRpcError: Unknown key: missing');
  });

  it('resources: listing, a template read, completion and a subscription update', async () => {
    const output = await run(resources);
    expect(output).toContain('resources: notes://index, notes://welcome, notes://todo');
    expect(output).toContain('templates: notes://{name}');
    expect(output).toContain('"text":"Write the docs"');
    expect(output).toContain("complete 'w': welcome");
    expect(output).toContain('updated: notes://todo');
  });

  it('prompts: arguments from the schema, completion, the rendered message', async () => {
    const output = await run(prompts);
    expect(output).toContain('prompt review: ["code","language"]');
    expect(output).toContain("complete 'ty': typescript");
    expect(output).toContain('message: Review this typescript:\nlet x = 1');
  });

  it('sampling and elicitation: both handlers answer, the schema default is filled', async () => {
    const output = await run(samplingElicitation);
    expect(output).toContain('elicitation: Where do you want to go?');
    expect(output).toContain('sampling: Plan 2 days in Lisbon');
    expect(output).toContain('result: {"type":"text","text":"Day 1: Alfama. Day 2: Belém."}');
  });

  it('long-running: progress keeps the call alive, cancellation and the hard maximum stop it', async () => {
    const output = await run(longRunning);
    expect(output).toContain('progress 5/5');
    expect(output).toContain('done: {"type":"text","text":"crunched 5 steps"}');
    expect(output).toMatch(/cancelled: true/);
    expect(output).toMatch(/capped: true/);
    expect(output).toContain('server handlers aborted: 2');
  });

  it('stateless HTTP: a call served without a session', async () => {
    const output = await run(statelessHttp);
    expect(output).toContain('echo: {"type":"text","text":"hi"}; sessions held by the server: 0');
  });

  it('WebSocket: a call over ws://127.0.0.1', async () => {
    const output = await run(websocket);
    expect(output).toMatch(/listening on ws:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain('shout: {"type":"text","text":"HELLO"}');
  });

  it('gateway: two HTTP clients reach a local and a remote upstream through the gateway', async () => {
    const output = await run(gateway);
    expect(output).toContain('tools: weather_forecast, news_headline');
    expect(output).toContain('client 1: {"type":"text","text":"Sunny in Oslo"}');
    expect(output).toContain('client 2: {"type":"text","text":"Gateway ships"}');
    expect(output).toContain('resource: news+news://front-page');
    expect(output).toContain('eras: legacy and modern; gateway sessions: 1');
  });

  it('lifecycle: the six states in order, seen from the client', async () => {
    const output = await run(lifecycle);
    expect(output).toContain('before connect: uninitialized');
    expect(output).toContain('connection uninitialized → initializing (outboundRequest)');
    expect(output).toContain('after connect: operating');
    expect(output).toContain('pending requests: 0');
    expect(output).toContain('after close: terminated, reason closed');
  });

  it('errors: a server error, a missing capability and a timeout, each with its category', async () => {
    const output = await run(errors);
    expect(output).toContain('unknown tool: invalid-request: server answered -32602');
    expect(output).toContain('prompts on a server without prompts: invalid-request: CAPABILITY_NOT_SUPPORTED — nothing was sent');
    expect(output).toContain('a call past its timeout: timeout: REQUEST_TIMEOUT after the timeout');
  });

  it('tasks extension: a task started through one instance is collected through another by its id', async () => {
    const output = await run(tasksExtension);
    expect(output).toContain('stopped waiting for task working');
    expect(output).toContain('status seen by the second instance: working');
    expect(output).toContain('result: {"type":"text","text":"report for Q3 is ready"}');
    expect(output).toContain('final status: completed');
  });

  it('skills: a folder published, listed, loaded on demand, a stale entry refused and refreshed', async () => {
    const output = await run(skills);
    expect(output).toContain('published: skill://release-notes/SKILL.md');
    expect(output).toMatch(/release-notes: Write the release notes .*; files: skill:\/\/release-notes\/SKILL\.md \(\d+ bytes\), skill:\/\/release-notes\/references\/template\.md/);
    expect(output).toContain('template: ## <version>');
    expect(output).toContain('stale entry refused: size');
    expect(output).toContain('reloaded: Mention breaking changes first.');
  });

  it('authorization: client-credentials tokens from a real issuer, a step-up on 403, a 401 without a token', async () => {
    const output = await run(authorization);
    expect(output).toContain('token request: client_credentials, scope=mcp\n');
    expect(output).toContain('whoami: {"type":"text","text":"report-bot with [mcp], DPoP token"}');
    expect(output).toContain('token request: client_credentials, scope=mcp admin');
    expect(output).toContain('purge: {"type":"text","text":"purged"}');
    expect(output).toMatch(/no token: 401 Bearer scope="mcp", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
  });

  it('oauth-proxy: dynamic registration, consent, upstream sign-in, a DPoP-bound token of the proxy for this server', async () => {
    const output = await run(oauthProxy);
    expect(output).toBe(
      [
        'consent page: Allow notes agent?',
        'registered as: a new client id',
        'whoami: {"type":"text","text":"alice with [mcp], DPoP token"}',
        'token: iss=the proxy, aud=this MCP server, sub=alice, DPoP-bound=true',
      ].join('\n'),
    );
  });
});
