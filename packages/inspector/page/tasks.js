// The tasks view of the inspector page: one card per task and side (the server running it, the
// client driving it), with the task diagram drawn from the task machine's table (sent in the
// hello frame) and the current status lit. Fed by the `task.transition` events.

const SVG = 'http://www.w3.org/2000/svg';
const NODE_W = 124;
const NODE_H = 30;
// Non-terminal statuses on the left, terminal ones on the right.
const PLACES = {
  working: [80, 70],
  input_required: [80, 150],
  completed: [300, 40],
  failed: [300, 110],
  cancelled: [300, 180],
};

/** Records one task.transition event in `tasks` (a Map); returns the task's entry. */
export function applyTaskEvent(tasks, event) {
  const key = `${event.sessionId}|${event.side}|${event.taskId}`;
  let task = tasks.get(key);
  if (task === undefined) {
    task = { key, sessionId: event.sessionId, side: event.side, taskId: event.taskId, tool: '', requestId: undefined, status: event.from, firstAt: event.at, at: event.at, elapsedMs: 0, walk: [event.from], edges: new Set() };
    tasks.set(key, task);
  }
  if (event.tool !== undefined) task.tool = event.tool;
  if (event.requestId !== undefined) task.requestId = event.requestId;
  if (event.from !== event.to) {
    task.edges.add(`${event.from}>${event.to}`);
    task.walk.push(event.to);
  }
  task.status = event.to;
  task.at = event.at;
  if (typeof event.elapsedMs === 'number') task.elapsedMs = event.elapsedMs;
  return task;
}

/** Draws every task (of the selected connection, if one is) into `container`. */
export function renderTasks(container, tasks, graph, selected) {
  const shown = [...tasks.values()].filter((task) => selected === '' || task.sessionId === selected).slice(-100);
  container.closest('section').querySelector('.empty').hidden = shown.length > 0;
  const keep = new Set(shown.map((task) => task.key));
  for (const card of container.querySelectorAll('.task')) if (!keep.has(card.dataset.key)) card.remove();
  for (const task of shown) {
    let card = [...container.querySelectorAll('.task')].find((element) => element.dataset.key === task.key);
    if (card === undefined) {
      card = document.createElement('div');
      card.className = 'task';
      card.dataset.key = task.key;
      card.dataset.taskId = task.taskId;
      card.dataset.side = task.side;
      card.dataset.sessionId = task.sessionId;
      card.innerHTML = '<div class="task-head"><span class="task-id"></span><span class="task-tool"></span><span class="task-side"></span><span class="task-status"></span><span class="task-time"></span></div><div class="task-connection muted"></div>';
      card.append(taskDiagram(graph), Object.assign(document.createElement('ol'), { className: 'history' }));
      container.append(card);
    }
    card.dataset.status = task.status;
    card.querySelector('.task-id').textContent = task.taskId.length > 14 ? `${task.taskId.slice(0, 12)}…` : task.taskId;
    card.querySelector('.task-id').title = task.taskId;
    card.querySelector('.task-tool').textContent = task.tool;
    card.querySelector('.task-side').textContent = task.side;
    card.querySelector('.task-status').textContent = task.status;
    card.querySelector('.task-status').className = `task-status state-${task.status}`;
    card.querySelector('.task-time').textContent = `${Math.round(task.elapsedMs)} ms`;
    card.querySelector('.task-connection').textContent = task.requestId === undefined ? task.sessionId : `${task.sessionId} · tools/call #${task.requestId}`;
    const visited = new Set(task.walk);
    for (const node of card.querySelectorAll('.node')) {
      node.classList.toggle('current', node.dataset.stateNode === task.status);
      node.classList.toggle('visited', visited.has(node.dataset.stateNode));
    }
    for (const edge of card.querySelectorAll('.edge')) edge.classList.toggle('walked', task.edges.has(edge.dataset.edge));
    card.querySelector('.history').replaceChildren(
      ...task.walk.map((status) => {
        const item = document.createElement('li');
        item.dataset.state = status;
        item.textContent = status;
        return item;
      }),
    );
  }
}

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

function place(state, index) {
  return PLACES[state] ?? [80 + 220 * (index % 2), 40 + 70 * Math.floor(index / 2)];
}

/** Where an arrow from `a` to `b` leaves and enters the two boxes. */
function ends(a, b) {
  if (a[0] === b[0]) {
    // Same column (working ⇄ input_required): two parallel vertical arrows.
    const shift = a[1] < b[1] ? -14 : 14;
    const down = a[1] < b[1] ? 1 : -1;
    return [a[0] + shift, a[1] + (down * NODE_H) / 2, b[0] + shift, b[1] - (down * NODE_H) / 2];
  }
  const right = a[0] < b[0] ? 1 : -1;
  return [a[0] + (right * NODE_W) / 2, a[1], b[0] - (right * NODE_W) / 2, b[1]];
}

function taskDiagram(graph) {
  const root = svg('svg', { class: 'diagram task-diagram', viewBox: '0 0 380 210', role: 'img', 'aria-label': 'task state machine' });
  const defs = svg('defs', {});
  const marker = svg('marker', { id: 'task-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }));
  defs.append(marker);
  root.append(defs);
  const at = new Map(graph.states.map((state, index) => [state, place(state, index)]));
  for (const edge of graph.edges) {
    const [x1, y1, x2, y2] = ends(at.get(edge.from), at.get(edge.to));
    const path = svg('path', { class: 'edge', d: `M ${x1} ${y1} L ${x2} ${y2}`, 'marker-end': 'url(#task-arrow)' });
    path.dataset.edge = `${edge.from}>${edge.to}`;
    const title = svg('title', {});
    title.textContent = `${edge.from} → ${edge.to}: ${edge.events.join(', ')}`;
    path.append(title);
    root.append(path);
  }
  for (const state of graph.states) {
    const [x, y] = at.get(state);
    const group = svg('g', { class: 'node' });
    group.dataset.stateNode = state;
    group.append(svg('rect', { x: x - NODE_W / 2, y: y - NODE_H / 2, width: NODE_W, height: NODE_H, rx: 8 }));
    const label = svg('text', { x, y });
    label.textContent = state;
    group.append(label);
    root.append(group);
  }
  return root;
}
