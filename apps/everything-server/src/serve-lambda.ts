/**
 * `everything-server --http --lambda`: the server behind the response-streaming Lambda handler
 * of `@statemcp/http-transport/lambda`, reached through a local Function URL emulator that turns
 * each HTTP request into a Lambda event (payload 2.0) and streams the handler's answer back. The
 * conformance suite runs against it like against `listen()`.
 */
import type { StreamableHttpServer } from '@statemcp/http-transport/server';
import { createStreamingLambdaHandler } from '@statemcp/http-transport/lambda';
import { emulatedAwsLambda, startLambdaEmulator } from '@statemcp/testing';

/** The Function URL domain the emulator sends as `Host`; the server allows it. */
export const LAMBDA_DOMAIN = 'everything.lambda-url.us-east-1.on.aws';

/** Serves `mcp` through the emulator on 127.0.0.1:`port`; resolves like `mcp.listen()`. */
export async function listenThroughLambda(mcp: StreamableHttpServer, port: number): Promise<{ url: URL; close(): Promise<void> }> {
  const handler = createStreamingLambdaHandler(mcp, { awslambda: emulatedAwsLambda });
  const emulator = await startLambdaEmulator({ integration: 'function-url-streaming', handler, domainName: LAMBDA_DOMAIN, port });
  return {
    url: new URL('/mcp', emulator.url),
    close: async () => {
      await emulator.close();
      await mcp.close();
    },
  };
}
