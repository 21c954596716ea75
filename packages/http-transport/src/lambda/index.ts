/**
 * `@statemcp/http-transport/lambda`: serves a Streamable HTTP server from AWS Lambda — Function
 * URLs, API Gateway HTTP APIs (payload 2.0) and REST APIs (payload 1.0), buffered or with
 * response streaming. No AWS library is needed or installed: the event shapes are structural
 * and the streaming runtime is the `awslambda` global of Lambda's Node.js runtime.
 */
export { createLambdaHandler, createStreamingLambdaHandler, streamingHandlerFor } from './lambda-handler.js';
export type { AwsLambdaRuntime, LambdaHandler, LambdaStreamMetadata, StreamingLambdaHandler, StreamingLambdaOptions } from './lambda-handler.js';
export { requestFromEvent, resultFromResponse } from './lambda-events.js';
export type { LambdaHeaders, LambdaHttpEvent, LambdaHttpEventV1, LambdaHttpEventV2, LambdaHttpResultV1, LambdaHttpResultV2 } from './lambda-events.js';
