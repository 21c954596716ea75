import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotificationParams } from '../revisions/blocks/base.js';
import { acceptsNoParams, formatIssues } from './validation.js';

describe('formatIssues', () => {
  it('names each failing path', () => {
    const result = z.object({ name: z.string(), arguments: z.object({ a: z.number() }) }).safeParse({ arguments: { a: 'x' } });
    expect(result.success).toBe(false);
    if (!result.success) expect(formatIssues(result.error)).toMatch(/^name: .+; arguments\.a: .+/);
  });

  it('reports the closest union branch instead of a bare "Invalid input"', () => {
    const schema = z.union([z.object({ content: z.array(z.unknown()) }), z.object({ task: z.object({ taskId: z.string(), status: z.string() }) })]);
    const result = schema.safeParse({ content: 'nope' });
    expect(result.success).toBe(false);
    if (!result.success) expect(formatIssues(result.error)).toMatch(/^content: /);
  });
});

describe('acceptsNoParams', () => {
  it('knows without parsing that the shared notification params accept {}, as a parse does', () => {
    expect(acceptsNoParams(NotificationParams)).toBe(true);
    expect(NotificationParams.safeParse({}).success).toBe(true);
  });

  it('answers what parsing {} answers, asking each schema once', () => {
    const open = z.looseObject({ _meta: z.record(z.string(), z.unknown()).optional() });
    const required = z.object({ progressToken: z.string(), progress: z.number() });
    let parses = 0;
    const counted = z.object({}).refine(() => {
      parses++;
      return true;
    });
    expect(acceptsNoParams(open)).toBe(true);
    expect(acceptsNoParams(required)).toBe(false);
    expect(acceptsNoParams(required)).toBe(false);
    expect(acceptsNoParams(counted)).toBe(true);
    expect(acceptsNoParams(counted)).toBe(true);
    expect(parses).toBe(1);
  });
});
