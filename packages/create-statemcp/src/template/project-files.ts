/**
 * The rest of a new project: package.json (scripts and dependency ranges), the TypeScript and
 * Vitest configs, .gitignore and the README.
 */
import type { PackageManager, ProjectOptions, Transport } from '../options.js';

/**
 * The version ranges a project depends on, by package name (`@statemcp/server` → `^0.2.0`, `zod`,
 * `typescript`, `vitest`, `@types/node`), as written to versions.json when this package is built.
 */
export type DependencyVersions = Readonly<Record<string, string>>;

function range(versions: DependencyVersions, name: string): string {
  const found = versions[name];
  if (found === undefined) throw new Error(`versions.json has no range for ${name}`);
  return found;
}

function pick(versions: DependencyVersions, names: readonly string[]): Record<string, string> {
  return Object.fromEntries([...names].sort().map((name) => [name, range(versions, name)]));
}

const TRANSPORT_PACKAGES: Record<Transport, readonly string[]> = {
  stdio: ['@statemcp/stdio-transport'],
  http: ['@statemcp/http-transport'],
  both: ['@statemcp/http-transport', '@statemcp/stdio-transport'],
};

const INSPECT: Record<Transport, string> = {
  stdio: 'tsc -p tsconfig.build.json && statemcp-inspect -- node dist/main.js',
  http: 'statemcp-inspect --url http://127.0.0.1:3000/mcp',
  both: 'tsc -p tsconfig.build.json && statemcp-inspect -- node dist/main.js',
};

/** package.json of the project. */
export function packageJson({ name, transport }: ProjectOptions, versions: DependencyVersions): string {
  // @statemcp/cli (statemcp dev) shares the other @statemcp packages' range until it has its own version.
  const cli = versions['@statemcp/cli'] ?? range(versions, '@statemcp/server');
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    description: 'An MCP server built with statemcp',
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: {
      dev: 'statemcp dev src/server.ts',
      build: 'tsc -p tsconfig.build.json',
      start: 'node dist/main.js',
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      inspect: INSPECT[transport],
    },
    dependencies: pick(versions, ['@statemcp/protocol', '@statemcp/server', ...TRANSPORT_PACKAGES[transport], 'zod']),
    devDependencies: pick({ ...versions, '@statemcp/cli': cli }, ['@statemcp/cli', '@statemcp/client', '@statemcp/inspector', '@types/node', 'typescript', 'vitest']),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** tsconfig.json (type-checks everything) and tsconfig.build.json (emits dist/ without the tests). */
export function tsconfigFiles(): { 'tsconfig.json': string; 'tsconfig.build.json': string } {
  const base = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      strict: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      skipLibCheck: true,
      rootDir: 'src',
      outDir: 'dist',
      sourceMap: true,
    },
    include: ['src'],
  };
  const build = { extends: './tsconfig.json', exclude: ['src/**/*.test.ts'] };
  return { 'tsconfig.json': `${JSON.stringify(base, null, 2)}\n`, 'tsconfig.build.json': `${JSON.stringify(build, null, 2)}\n` };
}

/** vitest.config.ts: the tests under src/ only (never the compiled copies in dist/). */
export const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['src/**/*.test.ts'] } });
`;

export const GITIGNORE = 'node_modules/\ndist/\n*.tsbuildinfo\n';

/** The command that runs package.json script `script` with `manager`. */
export function runScript(manager: PackageManager, script: string): string {
  if (manager === 'npm') return script === 'test' || script === 'start' ? `npm ${script}` : `npm run ${script}`;
  if (manager === 'pnpm') return `pnpm ${script}`;
  return `bun run ${script}`; // `bun test` would run bun's own test runner, not the script
}

const TRANSPORT_TEXT: Record<Transport, string> = {
  stdio: 'over stdio: an MCP client (Claude Desktop, Claude Code, Cursor, VS Code, …) starts it as a child process',
  http: 'over Streamable HTTP on 127.0.0.1 (port `PORT`, default 3000)',
  both: 'over stdio (an MCP client starts it as a child process), or over Streamable HTTP on 127.0.0.1 with `--http` (port `PORT`, default 3000)',
};

/** README.md of the project. */
export function readme(options: ProjectOptions): string {
  const { name, transport, packageManager } = options;
  const run = (script: string) => runScript(packageManager, script);
  const clientConfig =
    transport === 'http'
      ? `Start it (\`${run('start')}\` after \`${run('build')}\`) and give your client the URL it prints, \`http://127.0.0.1:3000/mcp\`.`
      : `Build it (\`${run('build')}\`), then add it to your client's MCP configuration, e.g. Claude Desktop's
\`claude_desktop_config.json\`:

\`\`\`json
{ "mcpServers": { "${name}": { "command": "node", "args": ["/absolute/path/to/${name.slice(name.lastIndexOf('/') + 1)}/dist/main.js"] } } }
\`\`\`

or let \`statemcp install\` (from \`@statemcp/cli\`, already a dev dependency) write it for the clients you
use: \`npx statemcp install --help\`.`;
  return `# ${name}

An [MCP](https://modelcontextprotocol.io) server built with [statemcp](https://github.com/statemcp/statemcp),
served ${TRANSPORT_TEXT[transport]}.

It starts with one of each thing an MCP server offers, about time zones:

- the tool \`time_in_zone\`: the local date, time and UTC offset in an IANA time zone, now or at a given instant;
- the resource \`time://zones\`: every time zone the tool accepts, as JSON;
- the prompt \`plan_meeting\`: asks the model for meeting times that suit people in several zones.

Replace them with your own in \`src/server.ts\`.

## Scripts

| command | what it does |
|---|---|
| \`${run('dev')}\` | serves \`src/server.ts\` with \`statemcp dev\`: no build step, and every save reloads the server without dropping connected clients |
| \`${run('test')}\` | runs \`src/server.test.ts\`: a statemcp client connected to the server in memory |
| \`${run('build')}\` | compiles \`src/\` to \`dist/\` |
| \`${run('start')}\` | runs the built server (\`dist/main.js\`) |
| \`${run('inspect')}\` | ${transport === 'http' ? 'with the server running, ' : ''}opens the statemcp inspector on the server: its connection states, every request, and a page to call the tool, read the resource and get the prompt |

## Files

- \`src/server.ts\`: the server: \`register(server)\` adds the tool, the resource and the prompt (the default export, what \`statemcp dev\` loads and reloads), \`createServer()\` makes a server with them.
- \`src/main.ts\`: serves it ${transport === 'both' ? 'over stdio, or Streamable HTTP with `--http`' : transport === 'stdio' ? 'over stdio' : 'over Streamable HTTP'}.
- \`src/server.test.ts\`: the test.

## Use it from an MCP client

${clientConfig}

## Learn more

- statemcp's guides: https://github.com/statemcp/statemcp/tree/main/docs/guide
- The server API (\`registerTool\`, \`registerResource\`, \`registerPrompt\`, …): https://github.com/statemcp/statemcp/tree/main/packages/server#readme
- The Model Context Protocol: https://modelcontextprotocol.io
`;
}
