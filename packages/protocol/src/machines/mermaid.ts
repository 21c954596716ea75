/**
 * Renders the transition tables as Mermaid state diagrams, for the docs and for tools that
 * draw a live session. The diagram is computed from the same frozen tables the runner uses,
 * so it cannot drift from the code.
 */
import { CONNECTION_TABLE } from './connection.js';
import { CONNECTION_EVENT_TYPES, CONNECTION_STAGES, type InitializingPhase } from './connection-types.js';
import { REQUEST_EVENT_TYPES, REQUEST_STATE_KINDS, REQUEST_TABLE } from './request.js';
import { TASK_EVENT_TYPES, TASK_STATUS_KINDS, TASK_TABLE } from './task.js';

const LABELS: Readonly<Record<string, string>> = {
  uninitialized: 'Uninitialized',
  handshaking: 'Handshaking',
  resuming: 'Resuming',
  discovering: 'Discovering',
  initialized: 'Initialized',
  operating: 'Operating',
  shuttingDown: 'ShuttingDown',
  terminated: 'Terminated',
};

const PHASES: readonly InitializingPhase[] = ['handshaking', 'resuming', 'discovering'];

/**
 * A Mermaid `stateDiagram-v2` of the connection machine (one edge per stage × event that
 * moves); Initializing is a composite state holding its three phases.
 */
export function renderConnectionMermaid(): string {
  const lines = ['stateDiagram-v2', '  [*] --> Uninitialized', '  state Initializing {'];
  for (const phase of PHASES) lines.push(`    ${LABELS[phase] ?? phase}`);
  lines.push('  }');
  for (const from of CONNECTION_STAGES) {
    const edges = new Map<string, string[]>();
    for (const event of CONNECTION_EVENT_TYPES) {
      const row = CONNECTION_TABLE[from][event];
      for (const to of row.to) {
        if (to === from) continue;
        const list = edges.get(to) ?? [];
        list.push(event);
        edges.set(to, list);
      }
    }
    for (const [to, events] of edges) {
      lines.push(`  ${LABELS[from] ?? from} --> ${LABELS[to] ?? to}: ${events.join(', ')}`);
    }
  }
  lines.push('  Terminated --> [*]');
  return lines.join('\n');
}

/** A Mermaid `stateDiagram-v2` of the request machine. */
export function renderRequestMermaid(): string {
  const lines = ['stateDiagram-v2', '  [*] --> created'];
  for (const from of REQUEST_STATE_KINDS) {
    const edges = new Map<string, string[]>();
    for (const event of REQUEST_EVENT_TYPES) {
      const to = REQUEST_TABLE[from][event];
      if (to === null || to === from) continue;
      const list = edges.get(to) ?? [];
      list.push(event);
      edges.set(to, list);
    }
    for (const [to, events] of edges) lines.push(`  ${from} --> ${to}: ${events.join(', ')}`);
  }
  for (const end of ['completed', 'failed', 'cancelled', 'expired', 'aborted']) lines.push(`  ${end} --> [*]`);
  return lines.join('\n');
}

/** A Mermaid `stateDiagram-v2` of the task machine (both task designs). */
export function renderTaskMermaid(): string {
  const lines = ['stateDiagram-v2', '  [*] --> working'];
  for (const from of TASK_STATUS_KINDS) {
    const edges = new Map<string, string[]>();
    for (const event of TASK_EVENT_TYPES) {
      const to = TASK_TABLE[from][event].to;
      if (to === null || to === from) continue;
      const list = edges.get(to) ?? [];
      list.push(event);
      edges.set(to, list);
    }
    for (const [to, events] of edges) lines.push(`  ${from} --> ${to}: ${events.join(', ')}`);
  }
  for (const end of ['completed', 'failed', 'cancelled']) lines.push(`  ${end} --> [*]`);
  return lines.join('\n');
}
