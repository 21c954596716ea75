import { TASK_STATUS_KINDS } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { taskGraph } from './machine-graph.js';

describe('taskGraph', () => {
  it('draws the task machine from TASK_TABLE: five statuses, terminal ones with no way out', () => {
    const graph = taskGraph();
    expect(graph.states).toEqual(TASK_STATUS_KINDS);
    const edges = Object.fromEntries(graph.edges.map((edge) => [`${edge.from}>${edge.to}`, edge.events]));
    expect(edges).toEqual({
      'working>input_required': ['needInput'],
      'working>completed': ['complete'],
      'working>failed': ['fail'],
      'working>cancelled': ['cancel'],
      'input_required>working': ['inputReceived'],
      'input_required>completed': ['complete'],
      'input_required>failed': ['fail'],
      'input_required>cancelled': ['cancel'],
    });
  });
});
