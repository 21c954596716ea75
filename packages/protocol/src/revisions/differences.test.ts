/**
 * What exists in which revision. Objects are loose, so a field a revision does not define
 * is still kept; the difference shows in validation: where a revision defines a field, a
 * value of the wrong type is rejected; where it does not, the value passes untouched.
 */
import { describe, it, expect } from 'vitest';
import * as z from 'zod/mini';
import type { Revision } from './types.js';
import * as V1 from './v2024-11-05.js';
import * as V2 from './v2025-03-26.js';
import * as V3 from './v2025-06-18.js';
import * as V4 from './v2025-11-25.js';
import * as V5 from './v2026-07-28.js';

const REVISIONS: readonly Revision[] = [V1.revision_2024_11_05, V2.revision_2025_03_26, V3.revision_2025_06_18, V4.revision_2025_11_25];
const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
type Version = (typeof VERSIONS)[number];

function since(first: Version): Version[] {
  return VERSIONS.filter((version) => version >= first);
}

function revisionsWhere(predicate: (revision: Revision) => boolean): string[] {
  return REVISIONS.filter(predicate).map((revision) => revision.version);
}

function accepts(schema: z.ZodMiniType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

function shapeKeys(schema: z.ZodMiniType): string[] {
  if (!(schema instanceof z.ZodMiniObject)) throw new Error('not an object schema');
  return Object.keys(schema.shape);
}

function requestParams(revision: Revision, method: string): z.ZodMiniType {
  const spec = revision.requests[method];
  if (spec === undefined) throw new Error(`${revision.version} has no ${method}`);
  return spec.params;
}

function requestResult(revision: Revision, method: string): z.ZodMiniType {
  const spec = revision.requests[method];
  if (spec === undefined) throw new Error(`${revision.version} has no ${method}`);
  return spec.result;
}

function notificationParams(revision: Revision, method: string): z.ZodMiniType {
  const spec = revision.notifications[method];
  if (spec === undefined) throw new Error(`${revision.version} has no ${method}`);
  return spec.params;
}

const implementation = { name: 'n', version: '1' };
const tool = { name: 't', inputSchema: { type: 'object' } };

describe('legacy revisions', () => {
  describe('#requests', () => {
    it('have elicitation/create from 2025-06-18 on', () => {
      expect(revisionsWhere((revision) => 'elicitation/create' in revision.requests)).toEqual(since('2025-06-18'));
    });

    it('have the task methods only in 2025-11-25', () => {
      for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']) {
        expect(revisionsWhere((revision) => method in revision.requests)).toEqual(['2025-11-25']);
      }
    });

    it('share the core methods with the same directions', () => {
      for (const revision of REVISIONS) {
        expect(revision.requests.initialize?.direction).toBe('clientToServer');
        expect(revision.requests.ping?.direction).toBe('both');
        expect(revision.requests['sampling/createMessage']?.direction).toBe('serverToClient');
        expect(revision.requests['roots/list']?.direction).toBe('serverToClient');
        expect(revision.requests['completion/complete']?.direction).toBe('clientToServer');
      }
    });
  });

  describe('#notifications', () => {
    it('have elicitation/complete and tasks/status only in 2025-11-25', () => {
      expect(revisionsWhere((revision) => 'notifications/elicitation/complete' in revision.notifications)).toEqual(['2025-11-25']);
      expect(revisionsWhere((revision) => 'notifications/tasks/status' in revision.notifications)).toEqual(['2025-11-25']);
    });

    it('make cancelled.requestId optional only in 2025-11-25', () => {
      expect(revisionsWhere((revision) => accepts(notificationParams(revision, 'notifications/cancelled'), { reason: 'x' }))).toEqual(['2025-11-25']);
    });

    it('type the progress message from 2025-03-26 on', () => {
      const params = { progressToken: 't', progress: 1, message: 42 };
      expect(revisionsWhere((revision) => !accepts(notificationParams(revision, 'notifications/progress'), params))).toEqual(since('2025-03-26'));
    });
  });

  describe('#batching', () => {
    it('is true only for 2025-03-26', () => {
      expect(revisionsWhere((revision) => revision.features.batching)).toEqual(['2025-03-26']);
      expect(revisionsWhere((revision) => revision.schemas.JsonRpcBatch !== undefined)).toEqual(['2025-03-26']);
    });

    it('marks every revision as legacy', () => {
      expect(REVISIONS.map((revision) => revision.era)).toEqual(['legacy', 'legacy', 'legacy', 'legacy']);
    });
  });

  describe('#schemas.Implementation', () => {
    it('has title from 2025-06-18 and icons, description and websiteUrl from 2025-11-25', () => {
      expect(revisionsWhere((revision) => shapeKeys(revision.schemas.Implementation).includes('title'))).toEqual(since('2025-06-18'));
      for (const key of ['icons', 'description', 'websiteUrl']) {
        expect(revisionsWhere((revision) => shapeKeys(revision.schemas.Implementation).includes(key))).toEqual(['2025-11-25']);
      }
      expect(revisionsWhere((revision) => !accepts(revision.schemas.Implementation, { ...implementation, title: 1 }))).toEqual(since('2025-06-18'));
      expect(revisionsWhere((revision) => !accepts(revision.schemas.Implementation, { ...implementation, icons: 'x' }))).toEqual(['2025-11-25']);
    });

    it('keeps unknown fields in every revision', () => {
      for (const revision of REVISIONS) {
        expect(revision.schemas.Implementation.parse({ ...implementation, future: { x: 1 } })).toEqual({ ...implementation, future: { x: 1 } });
      }
    });
  });

  describe('#schemas.ServerCapabilities', () => {
    it('has completions from 2025-03-26 and tasks from 2025-11-25', () => {
      expect(revisionsWhere((revision) => shapeKeys(revision.schemas.ServerCapabilities).includes('completions'))).toEqual(since('2025-03-26'));
      expect(revisionsWhere((revision) => shapeKeys(revision.schemas.ServerCapabilities).includes('tasks'))).toEqual(['2025-11-25']);
      expect(revisionsWhere((revision) => !accepts(revision.schemas.ServerCapabilities, { completions: 'yes' }))).toEqual(since('2025-03-26'));
    });
  });

  describe('#schemas.ClientCapabilities', () => {
    it('has elicitation from 2025-06-18 and tasks from 2025-11-25', () => {
      expect(revisionsWhere((revision) => shapeKeys(revision.schemas.ClientCapabilities).includes('elicitation'))).toEqual(since('2025-06-18'));
      expect(revisionsWhere((revision) => shapeKeys(revision.schemas.ClientCapabilities).includes('tasks'))).toEqual(['2025-11-25']);
      expect(revisionsWhere((revision) => !accepts(revision.schemas.ClientCapabilities, { elicitation: { url: true } }))).toEqual(['2025-11-25']);
    });

    it('accept any JSON objects as flags but reject non-objects', () => {
      for (const revision of REVISIONS) {
        expect(accepts(revision.schemas.ClientCapabilities, { sampling: {}, experimental: { vendor: { on: true } } })).toBe(true);
        expect(accepts(revision.schemas.ClientCapabilities, { sampling: true })).toBe(false);
        expect(accepts(revision.schemas.ClientCapabilities, { roots: { listChanged: 'yes' } })).toBe(false);
      }
    });
  });

  describe('#schemas.Tool', () => {
    it('has annotations from 2025-03-26, title and outputSchema from 2025-06-18, execution and icons from 2025-11-25', () => {
      const keys = (key: string) => revisionsWhere((revision) => shapeKeys(revision.schemas.Tool).includes(key));
      expect(keys('annotations')).toEqual(since('2025-03-26'));
      expect(keys('title')).toEqual(since('2025-06-18'));
      expect(keys('outputSchema')).toEqual(since('2025-06-18'));
      expect(keys('_meta')).toEqual(since('2025-06-18'));
      expect(keys('execution')).toEqual(['2025-11-25']);
      expect(keys('icons')).toEqual(['2025-11-25']);
    });

    it('validates those fields only where they exist', () => {
      const rejecting = (extra: object) => revisionsWhere((revision) => !accepts(revision.schemas.Tool, { ...tool, ...extra }));
      expect(rejecting({ annotations: { readOnlyHint: 'no' } })).toEqual(since('2025-03-26'));
      expect(rejecting({ outputSchema: { type: 'string' } })).toEqual(since('2025-06-18'));
      expect(rejecting({ execution: { taskSupport: 'never' } })).toEqual(['2025-11-25']);
      expect(rejecting({ inputSchema: { type: 'object', $schema: 7 } })).toEqual(['2025-11-25']);
    });
  });

  describe('#schemas.ContentBlock', () => {
    it('has audio from 2025-03-26 and resource links from 2025-06-18', () => {
      const audio = { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' };
      const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
      expect(revisionsWhere((revision) => accepts(revision.schemas.ContentBlock, audio))).toEqual(since('2025-03-26'));
      expect(revisionsWhere((revision) => accepts(revision.schemas.ContentBlock, link))).toEqual(since('2025-06-18'));
    });

    it('validates lastModified annotations from 2025-06-18', () => {
      const text = { type: 'text', text: 'x', annotations: { lastModified: 5 } };
      expect(revisionsWhere((revision) => !accepts(revision.schemas.ContentBlock, text))).toEqual(since('2025-06-18'));
    });
  });

  describe('#schemas.CallToolResult', () => {
    it('has structuredContent from 2025-06-18', () => {
      expect(revisionsWhere((revision) => shapeKeys(revision.schemas.CallToolResult).includes('structuredContent'))).toEqual(since('2025-06-18'));
    });

    it('accepts a CreateTaskResult for tools/call only in 2025-11-25', () => {
      const created = { task: { taskId: 'a', status: 'working', createdAt: 'x', lastUpdatedAt: 'y', ttl: null } };
      expect(revisionsWhere((revision) => accepts(requestResult(revision, 'tools/call'), created))).toEqual(['2025-11-25']);
    });
  });

  describe('#schemas.SamplingMessage', () => {
    it('accepts content arrays and tool use only in 2025-11-25', () => {
      const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: '1', name: 't', input: {} }] };
      expect(revisionsWhere((revision) => accepts(revision.schemas.SamplingMessage, toolUse))).toEqual(['2025-11-25']);
    });

    it('types tools and toolChoice of sampling/createMessage only in 2025-11-25', () => {
      const params = { messages: [], maxTokens: 1, toolChoice: { mode: 'sometimes' } };
      expect(revisionsWhere((revision) => !accepts(requestParams(revision, 'sampling/createMessage'), params))).toEqual(['2025-11-25']);
    });
  });

  describe('#requests tools/call', () => {
    it('types the task param only in 2025-11-25', () => {
      const params = { name: 't', task: { ttl: 'long' } };
      expect(revisionsWhere((revision) => !accepts(requestParams(revision, 'tools/call'), params))).toEqual(['2025-11-25']);
    });
  });

  describe('#requests completion/complete', () => {
    it('types the context from 2025-06-18', () => {
      const params = { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'b' }, context: { arguments: { x: 1 } } };
      expect(revisionsWhere((revision) => !accepts(requestParams(revision, 'completion/complete'), params))).toEqual(since('2025-06-18'));
    });
  });

  describe('#requests tables', () => {
    // Each row: a value that only some revisions reject, checked through the method table,
    // so a table entry still pointing at an older revision's schema is caught.
    const badIcon = [{ src: 1 }];
    // Resource links exist from 2025-06-18; one with a malformed icon fails before (no such
    // content type) and in 2025-11-25 (icons are typed), and passes in 2025-06-18.
    const linkWithBadIcon: Version[] = ['2024-11-05', '2025-03-26', '2025-11-25'];
    const rows: readonly { method: string; part: 'params' | 'result'; value: object; rejectedIn: Version[] }[] = [
      {
        method: 'initialize',
        part: 'params',
        value: { protocolVersion: 'x', capabilities: { elicitation: 'x' }, clientInfo: implementation },
        rejectedIn: since('2025-06-18'),
      },
      {
        method: 'initialize',
        part: 'params',
        value: { protocolVersion: 'x', capabilities: {}, clientInfo: { ...implementation, icons: badIcon } },
        rejectedIn: ['2025-11-25'],
      },
      {
        method: 'initialize',
        part: 'result',
        value: { protocolVersion: 'x', capabilities: { completions: 1 }, serverInfo: implementation },
        rejectedIn: since('2025-03-26'),
      },
      {
        method: 'initialize',
        part: 'result',
        value: { protocolVersion: 'x', capabilities: {}, serverInfo: { ...implementation, title: 1 } },
        rejectedIn: since('2025-06-18'),
      },
      {
        method: 'initialize',
        part: 'result',
        value: { protocolVersion: 'x', capabilities: { tasks: { list: 1 } }, serverInfo: implementation },
        rejectedIn: ['2025-11-25'],
      },
      { method: 'tools/list', part: 'result', value: { tools: [{ ...tool, annotations: 1 }] }, rejectedIn: since('2025-03-26') },
      { method: 'tools/list', part: 'result', value: { tools: [{ ...tool, title: 1 }] }, rejectedIn: since('2025-06-18') },
      { method: 'tools/list', part: 'result', value: { tools: [{ ...tool, icons: badIcon }] }, rejectedIn: ['2025-11-25'] },
      {
        method: 'tools/call',
        part: 'result',
        value: { content: [{ type: 'resource_link', uri: 'u', name: 'n', icons: badIcon }] },
        rejectedIn: linkWithBadIcon,
      },
      {
        method: 'tools/call',
        part: 'result',
        value: { content: [{ type: 'resource', resource: { uri: 'u', text: 't', _meta: 1 } }] },
        rejectedIn: since('2025-06-18'),
      },
      { method: 'resources/list', part: 'result', value: { resources: [{ uri: 'u', name: 'n', title: 1 }] }, rejectedIn: since('2025-06-18') },
      { method: 'resources/list', part: 'result', value: { resources: [{ uri: 'u', name: 'n', icons: badIcon }] }, rejectedIn: ['2025-11-25'] },
      {
        method: 'resources/templates/list',
        part: 'result',
        value: { resourceTemplates: [{ uriTemplate: 'u', name: 'n', icons: badIcon }] },
        rejectedIn: ['2025-11-25'],
      },
      {
        method: 'resources/templates/list',
        part: 'result',
        value: { resourceTemplates: [{ uriTemplate: 'u', name: 'n', annotations: { lastModified: 1 } }] },
        rejectedIn: since('2025-06-18'),
      },
      { method: 'resources/read', part: 'result', value: { contents: [{ uri: 'u', text: 't', _meta: 1 }] }, rejectedIn: since('2025-06-18') },
      { method: 'prompts/list', part: 'result', value: { prompts: [{ name: 'p', title: 1 }] }, rejectedIn: since('2025-06-18') },
      { method: 'prompts/list', part: 'result', value: { prompts: [{ name: 'p', icons: badIcon }] }, rejectedIn: ['2025-11-25'] },
      {
        method: 'prompts/list',
        part: 'result',
        value: { prompts: [{ name: 'p', arguments: [{ name: 'a', title: 1 }] }] },
        rejectedIn: since('2025-06-18'),
      },
      {
        method: 'prompts/get',
        part: 'result',
        value: { messages: [{ role: 'user', content: { type: 'audio', data: 'd', mimeType: 'audio/wav' } }] },
        rejectedIn: ['2024-11-05'],
      },
      {
        method: 'prompts/get',
        part: 'result',
        value: { messages: [{ role: 'user', content: { type: 'resource_link', uri: 'u', name: 'n', icons: badIcon } }] },
        rejectedIn: linkWithBadIcon,
      },
      {
        method: 'sampling/createMessage',
        part: 'params',
        value: { maxTokens: 1, messages: [{ role: 'user', content: { type: 'audio', data: 'd', mimeType: 'audio/wav' } }] },
        rejectedIn: ['2024-11-05'],
      },
      {
        method: 'sampling/createMessage',
        part: 'params',
        value: { maxTokens: 1, messages: [{ role: 'user', content: { type: 'text', text: 't', _meta: 1 } }] },
        rejectedIn: since('2025-06-18'),
      },
      {
        method: 'sampling/createMessage',
        part: 'params',
        value: { maxTokens: 1, messages: [], tools: [{ ...tool, execution: { taskSupport: 'x' } }] },
        rejectedIn: ['2025-11-25'],
      },
      {
        method: 'sampling/createMessage',
        part: 'result',
        value: { role: 'assistant', model: 'm', content: { type: 'audio', data: 'd', mimeType: 'audio/wav' } },
        rejectedIn: ['2024-11-05'],
      },
      {
        method: 'completion/complete',
        part: 'params',
        value: { ref: { type: 'ref/prompt', name: 'p', title: 1 }, argument: { name: 'a', value: 'v' } },
        rejectedIn: since('2025-06-18'),
      },
      { method: 'roots/list', part: 'result', value: { roots: [{ uri: 'u', _meta: 1 }] }, rejectedIn: since('2025-06-18') },
    ];

    it.each(rows)('uses the own blocks of each revision for $method $part', ({ method, part, value, rejectedIn }) => {
      const schemaOf = (revision: Revision) => (part === 'params' ? requestParams(revision, method) : requestResult(revision, method));
      expect(revisionsWhere((revision) => !accepts(schemaOf(revision), value))).toEqual(rejectedIn);
    });
  });

  describe('#schemas.JsonRpcMessage', () => {
    it('allows an error response without id only in 2025-11-25', () => {
      const error = { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } };
      expect(revisionsWhere((revision) => accepts(revision.schemas.JsonRpcMessage, error))).toEqual(['2025-11-25']);
    });

    it('checks elicitation/create params only where the method exists', () => {
      const request = { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: { message: 'x' } };
      expect(revisionsWhere((revision) => !accepts(revision.schemas.JsonRpcMessage, request))).toEqual(since('2025-06-18'));
    });
  });
});

describe('legacy and modern revisions', () => {
  const ALL: readonly Revision[] = [...REVISIONS, V5.revision_2026_07_28];
  const where = (predicate: (revision: Revision) => boolean) => ALL.filter(predicate).map((revision) => revision.version);
  const LEGACY: string[] = [...VERSIONS];

  describe('#features', () => {
    it('have a handshake, ping and server requests in every legacy revision only (MCP 2025-11-25 basic/lifecycle, MCP 2025-11-25 basic/utilities/ping, MCP 2025-11-25 basic/index §Messages)', () => {
      for (const feature of ['handshake', 'ping', 'serverRequests'] as const) {
        expect(where((revision) => revision.features[feature])).toEqual(LEGACY);
      }
    });

    it('have the stateless rules from 2026-07-28 only (MCP 2026-07-28 basic/index)', () => {
      const modern = ['perRequestMeta', 'resultType', 'multiRoundTrip', 'cacheableResults', 'listenSubscriptions', 'routingHeaders', 'extensions'] as const;
      for (const feature of modern) expect(where((revision) => revision.features[feature])).toEqual(['2026-07-28']);
    });

    it('drop core tasks, batching and SSE priming in 2026-07-28 and keep the MCP-Protocol-Version header (MCP 2026-07-28 changelog)', () => {
      expect(where((revision) => revision.features.tasks)).toEqual(['2025-11-25']);
      expect(where((revision) => revision.features.ssePriming)).toEqual(['2025-11-25']);
      expect(where((revision) => revision.features.batching)).toEqual(['2025-03-26']);
      expect(where((revision) => revision.features.protocolVersionHeader)).toEqual([...since('2025-06-18'), '2026-07-28']);
    });

    it('mark only 2026-07-28 as modern', () => {
      expect(ALL.map((revision) => revision.era)).toEqual(['legacy', 'legacy', 'legacy', 'legacy', 'modern']);
    });
  });

  describe('#requests', () => {
    it('have initialize and ping in every legacy revision only, server/discover in 2026-07-28 only', () => {
      expect(where((revision) => Object.hasOwn(revision.requests, 'initialize'))).toEqual(LEGACY);
      expect(where((revision) => Object.hasOwn(revision.requests, 'ping'))).toEqual(LEGACY);
      expect(where((revision) => Object.hasOwn(revision.requests, 'server/discover'))).toEqual(['2026-07-28']);
      expect(where((revision) => Object.values(revision.requests).some((spec) => spec.direction !== 'clientToServer'))).toEqual(LEGACY);
    });
  });
});
