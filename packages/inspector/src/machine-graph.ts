/**
 * The three state machines (connection, request, task) as plain graphs for the page: states and the edges between them,
 * computed from the same frozen tables the session runner steps through, so the diagram the
 * page draws cannot drift from the code.
 */
import {
  CONNECTION_EVENT_TYPES,
  CONNECTION_STAGES,
  CONNECTION_STATE_KINDS,
  CONNECTION_TABLE,
  kindOfStage,
  REQUEST_EVENT_TYPES,
  REQUEST_STATE_KINDS,
  REQUEST_TABLE,
  TASK_EVENT_TYPES,
  TASK_STATUS_KINDS,
  TASK_TABLE,
} from '@statemcp/protocol';

/** One arrow of a diagram: every event that moves `from` to `to`. */
export interface MachineEdge {
  readonly from: string;
  readonly to: string;
  readonly events: readonly string[];
}

/** A machine as the page draws it. */
export interface MachineGraph {
  readonly states: readonly string[];
  readonly edges: readonly MachineEdge[];
}

function graphOf(states: readonly string[], events: readonly string[], targets: (from: string, event: string) => readonly string[]): MachineGraph {
  const edges: MachineEdge[] = [];
  for (const from of states) {
    const byTarget = new Map<string, string[]>();
    for (const event of events) {
      for (const to of targets(from, event)) {
        if (to === from) continue;
        const list = byTarget.get(to) ?? [];
        list.push(event);
        byTarget.set(to, list);
      }
    }
    for (const [to, list] of byTarget) edges.push({ from, to, events: list });
  }
  return { states, edges };
}

/**
 * The connection machine (six states) as a graph. The table's rows are keyed by stage
 * (Initializing has three phases with rows of their own); the page draws the six kinds, so
 * each phase's edges are Initializing's.
 */
export function connectionGraph(): MachineGraph {
  return graphOf(CONNECTION_STATE_KINDS, CONNECTION_EVENT_TYPES, (from, event) => {
    const targets = new Set<string>();
    for (const stage of CONNECTION_STAGES) {
      if (kindOfStage(stage) !== from) continue;
      for (const to of CONNECTION_TABLE[stage][event as (typeof CONNECTION_EVENT_TYPES)[number]].to) targets.add(kindOfStage(to));
    }
    return [...targets];
  });
}

/** The request machine as a graph. */
export function requestGraph(): MachineGraph {
  return graphOf(REQUEST_STATE_KINDS, REQUEST_EVENT_TYPES, (from, event) => {
    const to = REQUEST_TABLE[from as (typeof REQUEST_STATE_KINDS)[number]][event as (typeof REQUEST_EVENT_TYPES)[number]];
    return to === null ? [] : [to];
  });
}

/** The task machine (five statuses, both task designs) as a graph. */
export function taskGraph(): MachineGraph {
  return graphOf(TASK_STATUS_KINDS, TASK_EVENT_TYPES, (from, event) => {
    const to = TASK_TABLE[from as (typeof TASK_STATUS_KINDS)[number]][event as (typeof TASK_EVENT_TYPES)[number]].to;
    return to === null ? [] : [to];
  });
}
