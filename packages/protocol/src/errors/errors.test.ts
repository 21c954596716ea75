import { describe, expect, it } from 'vitest';
import {
  AlreadyConnectedError,
  CapabilityNotSupportedError,
  ConnectionClosedError,
  JsonRpcError,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  StatemcpError,
  UnsupportedProtocolVersionError,
  categoryOf,
  toWireError,
} from './errors.js';
import type * as ErrorsModule from './errors.js';
import { LOCAL_ERROR_CATEGORIES, LocalErrorCode, categoryOfWireCode } from './categories.js';

describe('errors', () => {
  describe('brand', () => {
    it('keeps instanceof working across two copies of the module', async () => {
      const secondCopy = './errors.js?second-copy';
      const copy = (await import(/* @vite-ignore */ secondCopy)) as typeof ErrorsModule;
      expect(copy.RequestTimeoutError).not.toBe(RequestTimeoutError);
      const foreign = new copy.RequestTimeoutError(1, 100);
      expect(foreign instanceof StatemcpError).toBe(true);
      expect(foreign instanceof McpError).toBe(true);
      expect(foreign instanceof RequestTimeoutError).toBe(true);
      expect(foreign instanceof RequestCancelledError).toBe(false);
      expect(new copy.JsonRpcError(-32601, 'x') instanceof JsonRpcError).toBe(true);
      expect(new Error('plain') instanceof StatemcpError).toBe(false);
    });
  });

  describe('categories', () => {
    it('gives every local code a category from the one table', () => {
      for (const code of Object.values(LocalErrorCode)) expect(LOCAL_ERROR_CATEGORIES[code]).toBeDefined();
    });

    it.each([
      [-32700, 'format'],
      [-32600, 'invalid-request'],
      [-32601, 'invalid-request'],
      [-32602, 'invalid-request'],
      [-32603, 'handler'],
      [-32002, 'invalid-request'],
      [-32042, 'auth'],
      [-1, 'model'],
      [12345, 'unknown'],
    ] as const)('maps wire code %i to %s', (code, category) => {
      expect(categoryOfWireCode(code)).toBe(category);
      expect(new JsonRpcError(code, 'x').category).toBe(category);
    });

    it('categorises local errors, aborts and foreign errors', () => {
      expect(new RequestTimeoutError(1, 5).category).toBe('timeout');
      expect(new RequestCancelledError('x').category).toBe('interrupted');
      expect(new ConnectionClosedError('x').category).toBe('interrupted');
      expect(new AlreadyConnectedError('x').category).toBe('invalid-request');
      expect(categoryOf(new DOMException('stop', 'AbortError'))).toBe('interrupted');
      expect(categoryOf(new TypeError('x'))).toBe('unknown');
    });
  });

  describe('cause', () => {
    it('chains the cause', () => {
      const root = new Error('socket reset');
      const error = new ConnectionClosedError('closed', { cause: root, details: { exitCode: 1 } });
      expect(error.cause).toBe(root);
      expect(error.details).toEqual({ exitCode: 1 });
    });
  });

  describe('UnsupportedProtocolVersionError', () => {
    it('renders the -32602 "Unsupported protocol version" reply with supported and requested', () => {
      const error = new UnsupportedProtocolVersionError('1.0.0', ['2025-11-25', '2024-11-05']);
      expect(error.toJsonRpcError().toJSON()).toEqual({
        code: -32602,
        message: 'Unsupported protocol version',
        data: { supported: ['2025-11-25', '2024-11-05'], requested: '1.0.0' },
      });
    });
  });

  describe('toWireError', () => {
    it('keeps JSON-RPC codes, maps invalid arguments to -32602 and anything else to -32603', () => {
      expect(toWireError(new JsonRpcError(-32002, 'Resource not found', { uri: 'x' })).toJSON()).toEqual({ code: -32002, message: 'Resource not found', data: { uri: 'x' } });
      expect(toWireError(new TypeError('bad')).code).toBe(-32603);
      expect(toWireError(new CapabilityNotSupportedError('x', 'y')).code).toBe(-32603);
      expect(toWireError('string thrown').message).toBe('string thrown');
    });
  });
});
