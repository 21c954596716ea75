import { describe, expect, it } from 'vitest';
import { isValidBaggage, isValidTraceparent, isValidTracestate, outboundTraceContext, readTraceContext } from './trace-context.js';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('isValidTraceparent', () => {
  it.each([PARENT, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00', 'cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-holds', 'cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'])(
    'accepts %s',
    (value) => expect(isValidTraceparent(value)).toBe(true),
  );

  it.each([
    ['upper-case hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['an all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['extra fields on version 00', `${PARENT}-extra`],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01'],
    ['garbage', 'not-a-trace'],
    ['a non-string', 42],
  ])('rejects %s', (_label, value) => expect(isValidTraceparent(value)).toBe(false));
});

describe('isValidTracestate', () => {
  it.each(['congo=t61rcWkgMzE', 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE', ' congo=a , rojo=b ', 'tenant@vendor=x', 'a=b,,c=d', ''])('accepts %j', (value) =>
    expect(isValidTracestate(value)).toBe(true),
  );

  it.each([
    ['a key with upper case', 'Congo=x'],
    ['a member without =', 'congo'],
    ['an empty value', 'congo='],
    ['a value with =', 'congo=a=b'],
    ['a duplicate key', 'congo=a,congo=b'],
    ['33 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
    ['a non-string', { congo: 'x' }],
  ])('rejects %s', (_label, value) => expect(isValidTracestate(value)).toBe(false));
});

describe('isValidBaggage', () => {
  it.each(['userId=alice', 'userId=alice,isProduction=false', 'key1 = value1 ; prop1 ; prop2=v2, key2=%20spaced', 'k='])('accepts %j', (value) =>
    expect(isValidBaggage(value)).toBe(true),
  );

  it.each([
    ['an empty string', ''],
    ['a member without a value', 'userId'],
    ['a space inside a value', 'userId=al ice'],
    ['a quote in a value', 'userId="alice"'],
    ['a separator in a key', 'user id=alice'],
    ['65 members', Array.from({ length: 65 }, (_, i) => `k${i}=v`).join(',')],
    ['more than 8192 characters', `k=${'v'.repeat(8192)}`],
  ])('rejects %s', (_label, value) => expect(isValidBaggage(value)).toBe(false));
});

describe('readTraceContext', () => {
  it('keeps the valid keys and ignores every other _meta key', () => {
    expect(readTraceContext({ traceparent: PARENT, tracestate: 'congo=x', baggage: 'a=b', progressToken: 1 })).toEqual({ traceparent: PARENT, tracestate: 'congo=x', baggage: 'a=b' });
  });

  it('drops an invalid traceparent together with its tracestate, but keeps valid baggage', () => {
    expect(readTraceContext({ traceparent: 'bogus', tracestate: 'congo=x', baggage: 'a=b' })).toEqual({ baggage: 'a=b' });
    expect(readTraceContext({ tracestate: 'congo=x' })).toBeUndefined();
  });

  it('drops an invalid tracestate or baggage alone', () => {
    expect(readTraceContext({ traceparent: PARENT, tracestate: 'Bad', baggage: 'no value' })).toEqual({ traceparent: PARENT });
  });

  it('is undefined for nothing valid, or no object', () => {
    expect(readTraceContext({ traceparent: 'x' })).toBeUndefined();
    expect(readTraceContext(undefined)).toBeUndefined();
    expect(readTraceContext('00-…')).toBeUndefined();
  });
});

describe('outboundTraceContext', () => {
  const other = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('takes the first source that has one: option, own _meta, provider, inherited', () => {
    const provider = () => ({ traceparent: other });
    expect(outboundTraceContext({ traceparent: PARENT }, { traceparent: other }, provider, { traceparent: other })).toEqual({ traceparent: PARENT });
    expect(outboundTraceContext(undefined, { traceparent: PARENT }, provider, { traceparent: other })).toEqual({ traceparent: PARENT });
    expect(outboundTraceContext(undefined, { progressToken: 1 }, () => ({ traceparent: PARENT }), { traceparent: other })).toEqual({ traceparent: PARENT });
    expect(outboundTraceContext(undefined, undefined, () => undefined, { traceparent: PARENT })).toEqual({ traceparent: PARENT });
    expect(outboundTraceContext(undefined, undefined, () => undefined, undefined)).toBeUndefined();
  });

  it('does not fall back to a later source when the chosen one is invalid', () => {
    expect(outboundTraceContext({ traceparent: 'bad' }, undefined, () => ({ traceparent: PARENT }), { traceparent: PARENT })).toBeUndefined();
    expect(outboundTraceContext(undefined, { traceparent: 'bad' }, () => ({ traceparent: PARENT }), undefined)).toBeUndefined();
  });
});
