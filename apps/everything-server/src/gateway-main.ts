// The everything server behind a composition gateway (`@statemcp/server/compose`): the fixtures
// run in an upstream `McpServer` mounted without a namespace on a gateway served over Streamable
// HTTP, so the conformance suite's server leg checks what the gateway forwards
// (`node tooling/conformance/run.mjs --leg server --through-gateway`).
//
//   gateway-main [--port N]     Streamable HTTP at http://127.0.0.1:N/mcp (a random port by default)
import { createStreamableHttpServer, InMemoryEventStore } from '@statemcp/http-transport';
import { createAjvValidator } from '@statemcp/protocol/ajv';
import { McpServer } from '@statemcp/server';
import { compose } from '@statemcp/server/compose';
import { createEverythingServer, SERVER_INFO } from './fixtures.js';
import { addSkills } from './skills.js';

const portFlag = process.argv.indexOf('--port');
const port = portFlag === -1 ? 0 : Number(process.argv[portFlag + 1]);
const upstream = createEverythingServer();
await addSkills(upstream);
// Ajv, imported statically: the conformance run bundles this file, and the default engine's lazy require would not resolve from the bundle.
const gateway = new McpServer({ ...SERVER_INFO, name: `${SERVER_INFO.name}-gateway` }, { jsonSchemaValidator: createAjvValidator() });
const composition = compose(gateway, { onDiagnostic: (message) => process.stderr.write(`gateway: ${message}\n`) });
await composition.mount('', upstream);
const mcp = createStreamableHttpServer({
  path: '/mcp',
  eventStore: new InMemoryEventStore(),
  retryIntervalMs: 500,
  connect: (transport) => gateway.connect(transport),
  onError: (error) => process.stderr.write(`gateway: ${String(error)}\n`),
});
const listening = await mcp.listen({ port, host: '127.0.0.1' });
process.stdout.write(`everything-server listening on ${listening.url.href}\n`);
const stop = (): void => {
  void listening
    .close()
    .then(() => composition.close())
    .finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
