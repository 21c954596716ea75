import { describe, it, expect } from 'vitest';
import type * as z from 'zod/mini';
import {
  revision_2026_07_28 as revision,
  DiscoverResult,
  InputRequiredResult,
  MissingRequiredClientCapabilityErrorData,
  RequestMeta,
  SubscriptionFilter,
  UnsupportedProtocolVersionErrorData,
} from './v2026-07-28.js';
import { exchangeIssues, issues, notificationIssues, notificationSpecOf, requestSpecOf } from './test-support.js';

type Message = { [key: string]: unknown };

function accepts(schema: z.ZodMiniType, value: unknown): void {
  expect(issues(schema, value)).toEqual([]);
}

function rejects(schema: z.ZodMiniType, value: unknown): void {
  expect(schema.safeParse(value).success).toBe(false);
}

const requestSpec = (method: string) => requestSpecOf(revision, method);
const notificationSpec = (method: string) => notificationSpecOf(revision, method);
const exchange = (request: Message, response: Message) => expect(exchangeIssues(revision, request, response)).toEqual([]);
const notifies = (message: Message) => expect(notificationIssues(revision, message)).toEqual([]);

const clientInfo = { name: 'ExampleClient', version: '1.0.0' };
const serverInfo = { name: 'ExampleServer', version: '2.0.0' };
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': clientInfo,
};
const cache = { ttlMs: 60000, cacheScope: 'public' };
const weatherTool = { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };
const elicitation = {
  method: 'elicitation/create',
  params: { message: 'Which city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('revision 2026-07-28', () => {
  describe('#version', () => {
    it('is the modern revision with the stateless feature set', () => {
      expect(revision.version).toBe('2026-07-28');
      expect(revision.era).toBe('modern');
      expect(revision.features).toMatchObject({
        handshake: false,
        ping: false,
        serverRequests: false,
        batching: false,
        tasks: false,
        ssePriming: false,
        perRequestMeta: true,
        resultType: true,
        multiRoundTrip: true,
        cacheableResults: true,
        listenSubscriptions: true,
        routingHeaders: true,
        extensions: true,
      });
      expect(revision.schemas.DiscoverResult).toBe(DiscoverResult);
      expect(revision.schemas.InputRequiredResult).toBe(InputRequiredResult);
      expect(revision.schemas.SubscriptionFilter).toBe(SubscriptionFilter);
    });
  });

  describe('#requests', () => {
    it('holds exactly the client requests of MCP 2026-07-28 changelog, all sent by the client', () => {
      expect(Object.keys(revision.requests).sort()).toEqual([
        'completion/complete',
        'prompts/get',
        'prompts/list',
        'resources/list',
        'resources/read',
        'resources/templates/list',
        'server/discover',
        'subscriptions/listen',
        // the tasks extension's methods (served only to requests that declare it)
        'tasks/cancel',
        'tasks/get',
        'tasks/update',
        'tools/call',
        'tools/list',
      ]);
      for (const spec of Object.values(revision.requests)) expect(spec.direction).toBe('clientToServer');
    });

    it('removes the handshake, ping, setLevel, resource subscriptions, server requests and core tasks (MCP 2026-07-28 changelog)', () => {
      for (const method of [
        'initialize',
        'ping',
        'logging/setLevel',
        'resources/subscribe',
        'resources/unsubscribe',
        'sampling/createMessage',
        'elicitation/create',
        'roots/list',
        'tasks/result',
        'tasks/list',
      ]) {
        expect(Object.hasOwn(revision.requests, method)).toBe(false);
      }
      rejects(revision.schemas.InitializeRequestParams, { protocolVersion: '2026-07-28', capabilities: {}, clientInfo });
      rejects(revision.schemas.InitializeResult, { protocolVersion: '2026-07-28', capabilities: {}, serverInfo });
    });
  });

  describe('#notifications', () => {
    it('holds the client and server notifications of MCP 2026-07-28 changelog without initialized, roots, elicitation or task status', () => {
      expect(Object.keys(revision.notifications).sort()).toEqual([
        'notifications/cancelled',
        'notifications/message',
        'notifications/progress',
        'notifications/prompts/list_changed',
        'notifications/resources/list_changed',
        'notifications/resources/updated',
        'notifications/subscriptions/acknowledged',
        'notifications/tasks',
        'notifications/tools/list_changed',
      ]);
      expect(notificationSpec('notifications/cancelled').direction).toBe('both');
      expect(notificationSpec('notifications/progress').direction).toBe('serverToClient');
    });
  });

  describe('#RequestMeta', () => {
    it('requires protocolVersion and clientCapabilities on every request (MCP 2026-07-28 basic/index §_meta)', () => {
      accepts(RequestMeta, meta);
      accepts(RequestMeta, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} });
      rejects(RequestMeta, { 'io.modelcontextprotocol/clientCapabilities': {} });
      rejects(RequestMeta, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
      for (const method of Object.keys(revision.requests)) rejects(requestSpec(method).params, {});
    });

    it('checks the optional log level, client info, progress token and trace context (MCP 2025-11-25 basic/index §_meta, MCP 2025-11-25 server/utilities/logging)', () => {
      accepts(RequestMeta, { ...meta, 'io.modelcontextprotocol/logLevel': 'warning', progressToken: 7, traceparent: '00-abc-def-01' });
      rejects(RequestMeta, { ...meta, 'io.modelcontextprotocol/logLevel': 'verbose' });
      rejects(RequestMeta, { ...meta, 'io.modelcontextprotocol/clientInfo': { name: 'no version' } });
      rejects(RequestMeta, { ...meta, 'io.modelcontextprotocol/clientCapabilities': { sampling: true } });
    });

    it('accepts extensions and drops roots.listChanged in the per-request client capabilities (MCP 2026-07-28 basic/versioning, MCP 2026-07-28 changelog)', () => {
      accepts(RequestMeta, { ...meta, 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: 'gone' } } });
      accepts(RequestMeta, { ...meta, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
      rejects(RequestMeta, { ...meta, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': true } } });
    });
  });

  describe('#server/discover', () => {
    it('answers supportedVersions, capabilities and caching hints with resultType complete (MCP 2026-07-28 server/discover)', () => {
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            resultType: 'complete',
            supportedVersions: ['2026-07-28', '2025-11-25'],
            capabilities: { tools: { listChanged: true }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
            instructions: 'Use get_weather for forecasts.',
            ttlMs: 3600000,
            cacheScope: 'public',
            _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
          },
        },
      );
    });

    it('rejects a result without resultType, caching hints or supportedVersions (MCP 2026-07-28 basic/index §ResultType, MCP 2026-07-28 basic/utilities/caching)', () => {
      const result = { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {}, ...cache };
      accepts(DiscoverResult, result);
      const { resultType: _resultType, ...noResultType } = result;
      rejects(DiscoverResult, noResultType);
      rejects(DiscoverResult, { ...result, ttlMs: -1 });
      rejects(DiscoverResult, { ...result, ttlMs: 1.5 });
      rejects(DiscoverResult, { ...result, cacheScope: 'shared' });
      const { supportedVersions: _versions, ...noVersions } = result;
      rejects(DiscoverResult, noVersions);
      rejects(DiscoverResult, { ...result, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'no version' } } });
    });
  });

  describe('#cacheable lists', () => {
    it('require ttlMs and cacheScope on every page of the four lists and on resources/read (MCP 2026-07-28 basic/utilities/caching, MCP 2025-11-25 server/utilities/pagination)', () => {
      const lists: Record<string, Message> = {
        'tools/list': { tools: [weatherTool] },
        'prompts/list': { prompts: [{ name: 'p' }] },
        'resources/list': { resources: [{ uri: 'file:///a', name: 'a' }] },
        'resources/templates/list': { resourceTemplates: [{ uriTemplate: 'file:///{x}', name: 'x' }] },
        'resources/read': { contents: [{ uri: 'file:///a', text: 'hi' }] },
      };
      for (const [method, body] of Object.entries(lists)) {
        accepts(requestSpec(method).result, { resultType: 'complete', ...body, ...cache, nextCursor: '' });
        rejects(requestSpec(method).result, { resultType: 'complete', ...body });
        rejects(requestSpec(method).result, { resultType: 'complete', ...body, ttlMs: 5 });
      }
    });

    it('take a cursor, even an empty one, alongside the required _meta (MCP 2025-11-25 server/utilities/pagination)', () => {
      accepts(requestSpec('tools/list').params, { _meta: meta, cursor: '' });
      rejects(requestSpec('tools/list').params, { _meta: meta, cursor: 3 });
    });
  });

  describe('#resultType', () => {
    it('is required on every result and only complete or input_required in core (MCP 2026-07-28 basic/index §ResultType)', () => {
      const call = requestSpec('tools/call').result;
      accepts(call, { resultType: 'complete', content: [{ type: 'text', text: 'sunny' }] });
      rejects(call, { content: [{ type: 'text', text: 'sunny' }] });
      rejects(call, { resultType: 'task', content: [] });
      accepts(call, { resultType: 'complete', content: [], structuredContent: [1, 2] });
      accepts(requestSpec('completion/complete').result, { resultType: 'complete', completion: { values: ['a'] } });
      rejects(requestSpec('completion/complete').result, { completion: { values: ['a'] } });
    });
  });

  describe('#InputRequiredResult', () => {
    it('carries input requests keyed by name and/or requestState, at least one (MCP 2026-07-28 basic/patterns/mrtr)', () => {
      accepts(InputRequiredResult, { resultType: 'input_required', inputRequests: { city: elicitation }, requestState: 'opaque' });
      accepts(InputRequiredResult, { resultType: 'input_required', requestState: 'retry-later' });
      accepts(InputRequiredResult, { resultType: 'input_required', inputRequests: { roots: { method: 'roots/list' } } });
      rejects(InputRequiredResult, { resultType: 'input_required' });
      rejects(InputRequiredResult, { resultType: 'complete', requestState: 'x' });
      rejects(InputRequiredResult, { resultType: 'input_required', requestState: 42 });
    });

    it('allows only sampling, roots and elicitation as input requests, without jsonrpc ids (MCP 2026-07-28 basic/patterns/mrtr)', () => {
      rejects(InputRequiredResult, { resultType: 'input_required', inputRequests: { x: { method: 'tools/list', params: {} } } });
      rejects(InputRequiredResult, { resultType: 'input_required', inputRequests: { x: { method: 'elicitation/create', params: {} } } });
      const sampling = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 } };
      accepts(InputRequiredResult, { resultType: 'input_required', inputRequests: { s: sampling } });
      const url = { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login' } };
      accepts(InputRequiredResult, { resultType: 'input_required', inputRequests: { login: url } });
    });

    it('may answer tools/call, prompts/get and resources/read only (MCP 2026-07-28 basic/patterns/mrtr)', () => {
      const mrtr = { resultType: 'input_required', requestState: 's' };
      const allowed = Object.keys(revision.requests).filter((method) => requestSpec(method).result.safeParse(mrtr).success);
      expect(allowed.sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
    });

    it('is answered by a retry with inputResponses and the echoed requestState (MCP 2026-07-28 basic/patterns/mrtr)', () => {
      exchange(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { _meta: meta, name: 'get_weather', arguments: {} } },
        { jsonrpc: '2.0', id: 2, result: { resultType: 'input_required', inputRequests: { city: elicitation }, requestState: 'abc' } },
      );
      exchange(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: {
            _meta: meta,
            name: 'get_weather',
            arguments: {},
            inputResponses: { city: { action: 'accept', content: { city: 'Paris' } } },
            requestState: 'abc',
          },
        },
        { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', content: [{ type: 'text', text: 'sunny' }] } },
      );
      rejects(requestSpec('tools/call').params, { _meta: meta, name: 'get_weather', inputResponses: { city: { action: 'maybe' } } });
      rejects(requestSpec('prompts/get').params, { _meta: meta, name: 'p', requestState: 1 });
    });
  });

  describe('#subscriptions/listen', () => {
    it('takes a SubscriptionFilter and ends with a result tagged with the subscription id (MCP 2026-07-28 basic/patterns/subscriptions)', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 'listen-1',
          method: 'subscriptions/listen',
          params: { _meta: meta, notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///a'] } },
        },
        { jsonrpc: '2.0', id: 'listen-1', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } },
      );
      rejects(requestSpec('subscriptions/listen').params, { _meta: meta });
      rejects(requestSpec('subscriptions/listen').params, { _meta: meta, notifications: { toolsListChanged: 'yes' } });
      rejects(requestSpec('subscriptions/listen').params, { _meta: meta, notifications: { resourceSubscriptions: 'file:///a' } });
      rejects(requestSpec('subscriptions/listen').result, { resultType: 'complete' });
    });

    it('is acknowledged with the subscription id and the honoured subset (MCP 2026-07-28 basic/patterns/subscriptions)', () => {
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' }, notifications: { toolsListChanged: true } },
      });
      const acknowledged = notificationSpec('notifications/subscriptions/acknowledged').params;
      rejects(acknowledged, { notifications: { toolsListChanged: true } });
      rejects(acknowledged, { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } });
    });

    it('tags stream notifications with the subscription id (MCP 2026-07-28 basic/index §_meta)', () => {
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///a', _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
      });
      notifies({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } });
      rejects(notificationSpec('notifications/tools/list_changed').params, { _meta: { 'io.modelcontextprotocol/subscriptionId': null } });
    });
  });

  describe('#notifications/cancelled', () => {
    it('names the request it cancels again: tasks no longer use it (SEP-2663)', () => {
      notifies({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'timeout' } });
      rejects(notificationSpec('notifications/cancelled').params, { reason: 'no id' });
    });
  });

  describe('#errors', () => {
    it('checks -32022 data: supported versions and the requested one (MCP 2026-07-28 basic/versioning §Protocol Version Negotiation)', () => {
      const error = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28', '2025-11-25'], requested: '1900-01-01' } };
      accepts(revision.schemas.JsonRpcErrorResponse, { jsonrpc: '2.0', id: 1, error });
      rejects(revision.schemas.JsonRpcErrorResponse, { jsonrpc: '2.0', id: 1, error: { ...error, data: { supported: '2026-07-28' } } });
      rejects(UnsupportedProtocolVersionErrorData, { supported: ['2026-07-28'] });
    });

    it('checks -32021 data: the required client capabilities (MCP 2026-07-28 basic/index §_meta)', () => {
      const data = { requiredCapabilities: { elicitation: {} } };
      accepts(MissingRequiredClientCapabilityErrorData, data);
      accepts(revision.schemas.JsonRpcErrorResponse, { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'Missing capability', data } });
      rejects(revision.schemas.JsonRpcErrorResponse, { jsonrpc: '2.0', id: 1, error: { code: -32021, message: 'Missing capability' } });
      rejects(MissingRequiredClientCapabilityErrorData, { requiredCapabilities: { elicitation: true } });
    });

    it('lets an error response omit an unreadable id (MCP 2025-11-25 basic/index §Messages)', () => {
      accepts(revision.schemas.JsonRpcErrorResponse, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    });
  });

  describe('#JsonRpcMessage', () => {
    it('checks the params of known requests, including the required _meta', () => {
      rejects(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      accepts(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
    });
  });
});
