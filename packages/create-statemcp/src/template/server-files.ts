/**
 * The TypeScript of a new project: `src/server.ts` (the server: a time-zone tool, the list of zones
 * as a resource, a meeting-planning prompt), `src/main.ts` (serves it over the chosen transport) and
 * `src/server.test.ts` (connects a statemcp client in memory and uses all three, in each era served).
 */
import type { Era, ProjectOptions, Transport } from '../options.js';

const SUPPORTED_VERSIONS: Record<Era, string> = {
  both: '',
  modern: '\n  // Only the 2026-07-28 revision: stateless requests, no `initialize` handshake.\n  supportedVersions: [...MODERN_PROTOCOL_VERSIONS],',
  legacy: '\n  // Only the handshake revisions (2024-11-05 … 2025-11-25): every client runs `initialize` first.\n  supportedVersions: [...LEGACY_PROTOCOL_VERSIONS],',
};

const VERSIONS_IMPORT: Record<Era, string> = {
  both: '',
  modern: "import { MODERN_PROTOCOL_VERSIONS } from '@statemcp/protocol';\n",
  legacy: "import { LEGACY_PROTOCOL_VERSIONS } from '@statemcp/protocol';\n",
};

/** `src/server.ts`: `register(server)` (the default export, as `statemcp dev` loads it) and `createServer()`. */
export function serverSource({ name, era }: ProjectOptions): string {
  return `// The MCP server: one tool, one resource and one prompt about time zones. Change them, add your own.
// \`npm run dev\` serves this file and reloads it on every save; \`src/main.ts\` serves it for real.
${VERSIONS_IMPORT[era]}import { McpServer } from '@statemcp/server';
import { z } from 'zod';

export interface ServerOptions {
  /** The clock the tool reads (tests pass a fixed one). */
  readonly now?: () => Date;
}

/** The local date, time and UTC offset of \`at\` in \`timeZone\`, e.g. 2026-01-15 21:00 (UTC+09:00). */
export function localTime(at: Date, timeZone: string): { local: string; offset: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName') === 'GMT' ? 'UTC+00:00' : part('timeZoneName').replace('GMT', 'UTC');
  return { local: \`\${part('year')}-\${part('month')}-\${part('day')} \${part('hour')}:\${part('minute')}\`, offset };
}

/** The IANA time zones this runtime knows (Europe/Paris, Asia/Tokyo, …), plus UTC. */
export function timeZones(): string[] {
  return [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].sort();
}

function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Who the server says it is (\`statemcp dev\` reads it too). */
export const serverInfo = { name: '${name}', version: '0.1.0' };

/** Registers the tool, the resource and the prompt on \`server\`. */
export function register(server: McpServer, options: ServerOptions = {}): void {
  const now = options.now ?? (() => new Date());

  server.registerTool(
    'time_in_zone',
    {
      title: 'Time in a zone',
      description: 'The current local date and time (or that of a given instant) in an IANA time zone',
      inputSchema: {
        timeZone: z.string().describe('An IANA time zone, e.g. Europe/Paris or America/New_York (see time://zones)'),
        at: z.iso.datetime({ offset: true }).optional().describe('An ISO 8601 instant; default: now'),
      },
      outputSchema: { timeZone: z.string(), local: z.string(), offset: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ timeZone, at }) => {
      if (!isTimeZone(timeZone)) {
        return { isError: true, content: [{ type: 'text', text: \`Unknown time zone "\${timeZone}": read time://zones for the list.\` }] };
      }
      const { local, offset } = localTime(at === undefined ? now() : new Date(at), timeZone);
      return {
        content: [{ type: 'text', text: \`\${local} in \${timeZone} (\${offset})\` }],
        structuredContent: { timeZone, local, offset },
      };
    },
  );

  server.registerResource(
    'time-zones',
    'time://zones',
    { title: 'Time zones', description: 'Every IANA time zone the tool accepts', mimeType: 'application/json' },
    (uri) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(timeZones()) }] }),
  );

  server.registerPrompt(
    'plan_meeting',
    {
      title: 'Plan a meeting',
      description: 'Finds a meeting time that suits people in several time zones',
      argsSchema: {
        zones: z.string().describe('Comma-separated IANA time zones of the participants'),
        minutes: z.string().optional().describe('Length of the meeting in minutes (default 30)'),
      },
    },
    ({ zones, minutes }) => {
      const list = zones.split(',').map((zone) => zone.trim()).filter((zone) => zone !== '');
      return {
        description: \`A \${minutes ?? '30'}-minute meeting across \${list.length} time zones\`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text:
                \`Propose three times for a \${minutes ?? '30'}-minute meeting in the next week for people in \${list.join(', ')}. \` +
                'Keep every participant between 08:00 and 18:00 local time if you can; use the time_in_zone tool to check each ' +
                "proposal in every zone, and list each one as every participant's local time.",
            },
          },
        ],
      };
    },
  );
}

/** A server with everything registered: what \`src/main.ts\` serves and the test connects to. */
export function createServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer(serverInfo, {
    instructions: 'Tells the time in any time zone and helps plan meetings across zones.',${SUPPORTED_VERSIONS[era]}
  });
  register(server, options);
  return server;
}

// \`statemcp dev src/server.ts\` calls the default export with its own server, and again with a new
// one each time this file changes, applying only what changed to the sessions already connected.
export default register;
`;
}

const STDIO_SERVE = `  await server.connect(new StdioServerTransport()); // stdout carries the protocol: log to stderr
  console.error('${'${NAME}'}: ready on stdio');`;

const HTTP_SERVE = `  // One server for every HTTP session; it binds to 127.0.0.1 unless told otherwise.
  const http = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
  const listening = await http.listen({ port: Number(process.env['PORT'] ?? 3000) });
  console.log(listening.url.href);`;

/** `src/main.ts`: serves the server over stdio, Streamable HTTP, or either (`--http`). */
export function mainSource({ name, transport }: ProjectOptions): string {
  const imports: Record<Transport, string> = {
    stdio: "import { StdioServerTransport } from '@statemcp/stdio-transport';\n",
    http: "import { createStreamableHttpServer } from '@statemcp/http-transport/server';\n",
    both: "import { createStreamableHttpServer } from '@statemcp/http-transport/server';\nimport { StdioServerTransport } from '@statemcp/stdio-transport';\n",
  };
  const usage: Record<Transport, string> = {
    stdio: '// Serves the server over stdio: an MCP client starts `node dist/main.js` as a child process.',
    http: '// Serves the server over Streamable HTTP on 127.0.0.1 (PORT, default 3000): `node dist/main.js`.',
    both: '// Serves the server over stdio (`node dist/main.js`, what an MCP client starts as a child process)\n// or over Streamable HTTP on 127.0.0.1 (`node dist/main.js --http`; PORT, default 3000).',
  };
  const stdio = STDIO_SERVE.replace('${NAME}', name);
  const body: Record<Transport, string> = {
    stdio: `${stdio.replace(/^ {2}/gm, '')}\n`,
    http: `${HTTP_SERVE.replace(/^ {2}/gm, '')}\n`,
    both: `if (process.argv.includes('--http')) {\n${HTTP_SERVE}\n} else {\n${stdio}\n}\n`,
  };
  return `${usage[transport]}\n${imports[transport]}import { createServer } from './server.js';\n\nconst server = createServer();\n${body[transport]}`;
}

const TEST_ERAS: Record<Era, string> = {
  both: "['legacy', 'modern'] as const",
  modern: "['modern'] as const",
  legacy: "['legacy'] as const",
};

const OTHER_ERA: Record<Era, string> = {
  both: '',
  modern: `
describe('the server, legacy era', () => {
  it('refuses a client that only speaks the handshake revisions', async () => {
    await expect(connect('legacy')).rejects.toThrow('Unsupported protocol version');
  });
});
`,
  legacy: `
describe('the server, modern era', () => {
  it('refuses a client that only speaks 2026-07-28', async () => {
    await expect(connect('modern')).rejects.toThrow(/initialize/);
  });
});
`,
};

/** `src/server.test.ts`: a statemcp client connected in memory, in each era the server serves (and refused in the other). */
export function testSource({ era }: ProjectOptions): string {
  return `import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import register, { createServer, serverInfo } from './server.js';

const NOW = new Date('2026-01-15T12:00:00Z');

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const side of open.splice(0)) await side.close();
});

/** A client connected in memory (no process, no socket) to a fresh server whose clock reads NOW. */
async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const server = createServer({ now: () => NOW });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  open.push(server);
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { era });
  await client.connect(clientSide);
  open.push(client);
  return client;
}
${OTHER_ERA[era]}
describe('the default export (what \`statemcp dev\` loads)', () => {
  it('registers the tool, the resource and the prompt on the server it is given', async () => {
    const server = new McpServer(serverInfo);
    register(server);
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    open.push(server);
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['time_in_zone']);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['time://zones']);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['plan_meeting']);
  });
});

describe.each(${TEST_ERAS[era]})('the server, %s era', (era) => {
  it('lists its tool, resource and prompt', async () => {
    const client = await connect(era);
    const { tools } = await client.listTools();
    const { resources } = await client.listResources();
    const { prompts } = await client.listPrompts();
    expect(tools.map((tool) => tool.name)).toEqual(['time_in_zone']);
    expect(resources.map((resource) => resource.uri)).toEqual(['time://zones']);
    expect(prompts.map((prompt) => prompt.name)).toEqual(['plan_meeting']);
  });

  it('tells the time in a zone, now or at a given instant', async () => {
    const client = await connect(era);
    const now = await client.callTool({ name: 'time_in_zone', arguments: { timeZone: 'Asia/Tokyo' } });
    expect(now.structuredContent).toEqual({ timeZone: 'Asia/Tokyo', local: '2026-01-15 21:00', offset: 'UTC+09:00' });
    const at = await client.callTool({ name: 'time_in_zone', arguments: { timeZone: 'UTC', at: '2026-07-01T09:30:00+02:00' } });
    expect(at.content).toEqual([{ type: 'text', text: '2026-07-01 07:30 in UTC (UTC+00:00)' }]);
  });

  it('answers an unknown zone with a tool error', async () => {
    const client = await connect(era);
    const result = await client.callTool({ name: 'time_in_zone', arguments: { timeZone: 'Mars/Olympus_Mons' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Unknown time zone "Mars/Olympus_Mons": read time://zones for the list.' }]);
  });

  it('reads the time zones', async () => {
    const client = await connect(era);
    const { contents } = await client.readResource({ uri: 'time://zones' });
    const zones: unknown = JSON.parse(contents[0] !== undefined && 'text' in contents[0] ? contents[0].text : '[]');
    expect(zones).toEqual(expect.arrayContaining(['Europe/Paris', 'America/New_York', 'UTC']));
  });

  it('writes the meeting prompt for the zones given', async () => {
    const client = await connect(era);
    const prompt = await client.getPrompt({ name: 'plan_meeting', arguments: { zones: 'Europe/Paris, Asia/Tokyo', minutes: '45' } });
    expect(prompt.description).toBe('A 45-minute meeting across 2 time zones');
    expect(prompt.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('people in Europe/Paris, Asia/Tokyo') });
  });
});
`;
}
