import { describe, expect, it } from 'vitest';
import { batchRule, readEnvelope, type PostEnvelope } from './post-envelope.js';

async function refusal(answer: PostEnvelope | Response): Promise<{ status: number; body: unknown }> {
  if (!(answer instanceof Response)) throw new Error('expected a refusal');
  return { status: answer.status, body: await answer.json() };
}

describe('readEnvelope', () => {
  it('classifies a single request once: its messages, ids, initialize and the id an error names', () => {
    const envelope = readEnvelope({ jsonrpc: '2.0', id: 7, method: 'initialize', params: {}, extra: 'dropped' });
    expect(envelope).toEqual({
      messages: [{ jsonrpc: '2.0', id: 7, method: 'initialize', params: {} }],
      batch: false,
      requestIds: [7],
      initializeId: 7,
      replyId: 7,
    });
  });

  it('keeps notifications and responses of a batch beside its requests, naming no reply id', () => {
    const envelope = readEnvelope([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
    expect(envelope).toMatchObject({ batch: true, requestIds: ['a'], initializeId: undefined, replyId: undefined });
    expect((envelope as PostEnvelope).messages).toHaveLength(3);
  });

  it.each([
    ['an empty batch', [], 'an empty batch', null],
    ['a nested batch', [[{ jsonrpc: '2.0', method: 'x' }]], 'nested batch', null],
    ['initialize in a batch', [{ jsonrpc: '2.0', id: 1, method: 'initialize' }], 'initialize must not be part of a batch', 1],
    ['a member without jsonrpc 2.0', [{ id: 2, method: 'tools/list' }], '"jsonrpc" member', 2],
  ])('refuses %s with 400 and -32600', async (_name, body, message, id) => {
    const { status, body: answer } = await refusal(readEnvelope(body));
    expect(status).toBe(400);
    expect(answer).toMatchObject({ id, error: { code: -32600, message: expect.stringContaining(message) } });
  });

  it('refuses a malformed response without naming its id (nothing waits for an answer to it)', async () => {
    const { body } = await refusal(readEnvelope({ jsonrpc: '2.0', id: 5, result: 'not an object' }));
    expect(body).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('batchRule', () => {
  it('allows batches in 2025-03-26 only', async () => {
    const envelope = readEnvelope([{ jsonrpc: '2.0', id: 1, method: 'ping' }]) as PostEnvelope;
    expect(batchRule(envelope, '2025-03-26')).toBeUndefined();
    const { status, body } = await refusal(batchRule(envelope, '2025-06-18') ?? readEnvelope({}));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { message: expect.stringContaining('not supported in protocol revision 2025-06-18') } });
    expect(batchRule(readEnvelope({ jsonrpc: '2.0', id: 1, method: 'ping' }) as PostEnvelope, '2025-06-18')).toBeUndefined();
  });
});
