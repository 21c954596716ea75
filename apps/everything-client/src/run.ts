/**
 * The conformance client's command line, as the suite invokes it:
 *
 *   MCP_CONFORMANCE_SCENARIO=<name> everything-client [...] <serverUrl>
 *
 * The server URL is the last argument. Exit status: 0 when the scenario ran to the end,
 * 1 when it failed, 2 for a scenario (or protocol revision) this client does not implement.
 */
import { isLegacyVersion, isModernVersion, parseJson, isJsonObject, type JsonObject } from '@statemcp/protocol';
import { AUTH_SCENARIOS } from './auth-scenarios.js';
import { SCENARIOS } from './scenarios.js';

export interface RunInput {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: (line: string) => void;
}

export async function run({ argv, env, log }: RunInput): Promise<number> {
  const serverUrl = argv.at(-1);
  const name = env.MCP_CONFORMANCE_SCENARIO;
  if (serverUrl === undefined || !URL.canParse(serverUrl)) {
    log('usage: MCP_CONFORMANCE_SCENARIO=<scenario> everything-client <server-url>');
    return 2;
  }
  if (name === undefined || name === '') {
    log('MCP_CONFORMANCE_SCENARIO is not set');
    return 2;
  }
  const version = env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  if (version !== undefined && version !== '' && !isLegacyVersion(version) && !isModernVersion(version)) {
    log(`protocol revision ${version} is not supported by this client (scenario ${name})`);
    return 2;
  }
  // The wire the suite asks for: 2026-07-28 is the stateless era (discovery, no fallback), the rest the handshake.
  const era = version !== undefined && isModernVersion(version) ? 'modern' : 'legacy';
  const parsed = env.MCP_CONFORMANCE_CONTEXT === undefined ? undefined : parseJson(env.MCP_CONFORMANCE_CONTEXT);
  const scenarioData: JsonObject | undefined = parsed?.ok === true && isJsonObject(parsed.value) ? parsed.value : undefined;
  const scenario = SCENARIOS[name] ?? AUTH_SCENARIOS[name];
  if (scenario === undefined) {
    log(`unsupported scenario: ${name} (supported: ${[...Object.keys(SCENARIOS), ...Object.keys(AUTH_SCENARIOS)].join(', ')})`);
    return 2;
  }
  try {
    await scenario({ serverUrl, log, era, data: scenarioData });
    log(`scenario ${name}: done`);
    return 0;
  } catch (error) {
    log(`scenario ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}
