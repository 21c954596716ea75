// Shared by the HTTP profiling scripts: statemcp's client over Streamable HTTP, the counterpart of
// raw-client.mjs's `rawHttpClient` (same `{ call, close }` shape, the same echo checked).
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';

/** Connects statemcp's `Client` in `era` to the fixture on `port`; `call()` runs one checked `tools/call echo`. */
export async function statemcpHttpClient(port, era) {
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { era });
  await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/`));
  const call = async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    if (result.content[0]?.text !== 'hello') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };
  return { call, close: () => client.close() };
}
