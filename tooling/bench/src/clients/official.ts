/**
 * The client adapter the official SDK 1.x and 2.x share: the two differ only in their classes,
 * their transports and two call signatures, which each passes in.
 */
import { BIG_TOOL, ECHO_TOOL, SLEEP_TOOL, STATS_TOOL } from '../spec.js';
import { childNodeArgs, countCancels, expectText, parseStats, textLength, type BenchClient, type InMemoryPair, type ServerOptions, type StdioConnection } from './types.js';

interface SdkTransport {
  send: (message: never, ...rest: never[]) => Promise<void>;
}

interface SdkClient<T> {
  connect(transport: T): Promise<void>;
  close(): Promise<void>;
}

/** What one official SDK provides to the adapter. */
export interface OfficialSdk<T extends SdkTransport, C extends SdkClient<T>> {
  newClient(info: { name: string; version: string }): C;
  callTool(client: C, name: string, args: Record<string, unknown>, timeoutMs: number | undefined): Promise<unknown>;
  /** The number of tools, always from a round trip (no response cache). */
  countTools(client: C): Promise<number>;
  linkedPair(): [T, T];
  createServer(options: ServerOptions): { connect(transport: T): Promise<void>; close(): Promise<void> };
  stdioTransport(params: { command: string; args: string[]; stderr: 'inherit' }): T & { readonly pid: number | null };
  httpTransport(url: URL): T;
}

const INFO = { name: 'bench-client', version: '1.0.0' };

export function officialAdapter<T extends SdkTransport, C extends SdkClient<T>>(sdk: OfficialSdk<T, C>) {
  function wrap(client: C, cancels: () => number): BenchClient {
    const call = (name: string, args: Record<string, unknown>, timeoutMs?: number) => sdk.callTool(client, name, args, timeoutMs);
    return {
      echo: async (text) => expectText(await call(ECHO_TOOL, { text }), text),
      big: async (bytes) => textLength(await call(BIG_TOOL, { bytes })),
      listTools: () => sdk.countTools(client),
      sleepUntilTimeout: (timeoutMs) => call(SLEEP_TOOL, {}, timeoutMs).then(() => false, () => true),
      stats: async () => parseStats(await call(STATS_TOOL, {})),
      cancelsSent: cancels,
      close: () => client.close(),
    };
  }

  async function connect(transport: T): Promise<BenchClient> {
    const cancels = countCancels(transport);
    const client = sdk.newClient(INFO);
    await client.connect(transport);
    return wrap(client, cancels);
  }

  return {
    inMemory: async (options: ServerOptions, timing?: { ms: number }): Promise<InMemoryPair> => {
      const server = sdk.createServer(options);
      const [clientSide, serverSide] = sdk.linkedPair();
      const started = performance.now();
      await server.connect(serverSide);
      const client = await connect(clientSide);
      if (timing !== undefined) timing.ms = performance.now() - started;
      return {
        client,
        close: async () => {
          await client.close();
          await server.close();
        },
      };
    },

    stdio: async (fixture: string, args: readonly string[]): Promise<StdioConnection> => {
      const transport = sdk.stdioTransport({ command: process.execPath, args: [...childNodeArgs(), fixture, ...args], stderr: 'inherit' });
      const client = await connect(transport);
      return { client, pid: transport.pid ?? -1 };
    },

    http: (url: string): Promise<BenchClient> => connect(sdk.httpTransport(new URL(url))),
  };
}
