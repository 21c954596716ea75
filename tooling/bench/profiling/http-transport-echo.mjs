// The Streamable HTTP server with no protocol behind it (issue 39 items 1, 2): a fixture for
// `http-modern-server-cpu.mjs` whose `connect` starts each transport with a sink that answers
// `tools/call echo` (and a legacy `initialize`) itself, so the server CPU it measures is the HTTP
// transport and node:http alone; the gap to `http-raw.mjs` is the transport's, the rest of the gap
// to `http-statemcp.mjs` the protocol's and the server's. Build the packages first.
//   node http-modern-server-cpu.mjs ./http-transport-echo.mjs [CALLS] [IN_FLIGHT]
import { createStreamableHttpServer } from '@statemcp/http-transport/server';

const http = createStreamableHttpServer({
  connect: async (transport) => {
    await transport.start({
      onMessage(message) {
        if (message.id === undefined) return;
        const initialize = message.method === 'initialize';
        if (initialize) transport.setProtocolVersion('2025-11-25');
        const result = initialize
          ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'echo', version: '1' } }
          : { content: [{ type: 'text', text: message.params.arguments.text }] };
        void transport.send({ jsonrpc: '2.0', id: message.id, result });
      },
      onClose() {},
      onError() {},
    });
  },
});
const { port } = await http.listen({ port: 0, host: '127.0.0.1' });
console.log(`LISTENING ${port}`);
// The driver ends stdin when it is done.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
