// The statemcp inspector page: no framework, no build step. It keeps a small model of every
// connection (its state walk) and every request (its ledger row) from the inspect events the
// endpoint streams, and redraws the parts that changed once per animation frame. Tasks are drawn
// by tasks.js, job queues by queues.js.

import { applyQueueEvent, renderQueues } from './queues.js';
import { applyTaskEvent, renderTasks } from './tasks.js';

const MAX_TIMELINE = 5000;
const LABELS = {
  uninitialized: 'Uninitialized',
  initializing: 'Initializing',
  initialized: 'Initialized',
  operating: 'Operating',
  shuttingDown: 'ShuttingDown',
  terminated: 'Terminated',
};

const model = {
  connectionGraph: { states: [], edges: [] },
  requestStates: [],
  taskGraph: { states: [], edges: [] },
  tasks: new Map(), // sessionId|side|taskId -> task
  queues: new Map(), // queue name -> counts, depth, latencies
  connections: new Map(), // sessionId -> { id, state, walk: [{ state, event, at }], edges: Set }
  requests: new Map(), // sessionId|direction|id -> row
  progressTokens: new Map(), // sessionId|token -> request key
  events: [],
  dropped: 0,
  selected: '',
};

const view = { paused: false, dirty: new Set(), frame: 0, rendered: 0 };
const $ = (selector) => document.querySelector(selector);
const params = new URLSearchParams(location.search);
const token = params.get('token') ?? '';

connect();
wireControls();

function connect() {
  const socket = new WebSocket(`ws://${location.host}/events?token=${encodeURIComponent(token)}`);
  const link = $('#link');
  socket.addEventListener('open', () => {
    link.dataset.link = 'open';
    link.textContent = 'live';
  });
  socket.addEventListener('close', () => {
    link.dataset.link = 'closed';
    link.textContent = 'disconnected';
  });
  socket.addEventListener('message', (message) => receive(JSON.parse(message.data)));
  window.inspectorSocket = socket;
}

function receive(frame) {
  if (frame.type === 'hello') {
    document.title = `${frame.title} — statemcp inspector`;
    $('#title').textContent = frame.title;
    model.connectionGraph = frame.connection;
    model.requestStates = frame.request.states;
    model.taskGraph = frame.task ?? model.taskGraph;
    const stateFilter = $('#filter-state');
    for (const state of [...frame.connection.states, ...frame.request.states, ...model.taskGraph.states]) {
      if ([...stateFilter.options].some((option) => option.value === state)) continue;
      stateFilter.append(new Option(state, state));
    }
    $('#commands-panel').hidden = frame.commands.length === 0;
    return;
  }
  if (frame.type === 'events') {
    if (frame.dropped > 0) {
      model.dropped += frame.dropped;
      const dropped = $('#dropped');
      dropped.hidden = false;
      dropped.textContent = `${model.dropped} events skipped (viewer too slow)`;
    }
    for (const event of frame.events) apply(event);
    schedule();
    return;
  }
  if (frame.type === 'commandResult') showCommandResult(frame);
}

function apply(event) {
  if (event.type === 'task-queue') {
    applyQueueEvent(model.queues, event);
    view.dirty.add('queues');
    if (event.event === 'depth') return; // a sample, not a happening: the panel only
  }
  model.events.push(event);
  if (model.events.length > MAX_TIMELINE) model.events.splice(0, model.events.length - MAX_TIMELINE);
  view.dirty.add('timeline');
  if (event.type === 'task-queue') return;
  const connection = connectionFor(event.sessionId);
  if (event.type === 'session.transition') {
    if (connection.walk.length === 0) connection.walk.push({ state: event.from, event: 'start', at: event.at });
    connection.walk.push({ state: event.to, event: event.event, at: event.at });
    connection.edges.add(`${event.from}>${event.to}`);
    connection.state = event.to;
    view.dirty.add('connections');
  } else if (event.type === 'request.transition') {
    // A Multi Round-Trip request keeps its row: its retries go out under new ids.
    const row = requestFor(event.sessionId, event.direction, event.input?.firstId ?? event.requestId, event.method, event.at);
    row.state = event.to;
    row.elapsedMs = event.elapsedMs;
    row.updatedAt = event.at;
    row.currentId = event.requestId;
    if (event.input !== undefined) {
      row.round = event.input.round;
      row.inputKeys = event.input.keys;
      if (event.direction === 'outbound') model.requests.set(`${event.sessionId}|outbound|${event.requestId}`, row);
    }
    view.dirty.add('ledger');
  } else if (event.type === 'task.transition') {
    applyTaskEvent(model.tasks, event);
    view.dirty.add('tasks');
  } else if (event.type === 'message.in' || event.type === 'message.out') {
    applyMessage(event);
  }
}

function applyMessage(event) {
  const message = event.message ?? {};
  const direction = event.type === 'message.out' ? 'outbound' : 'inbound';
  const token = message.params?._meta?.progressToken;
  if (message.method !== undefined && message.id !== undefined && token !== undefined) {
    model.progressTokens.set(`${event.sessionId}|${token}`, `${event.sessionId}|${direction}|${message.id}`);
  }
  if (message.method === 'notifications/progress') {
    const key = model.progressTokens.get(`${event.sessionId}|${message.params?.progressToken}`);
    const row = key === undefined ? undefined : model.requests.get(key);
    if (row !== undefined) {
      row.progress = message.params.total === undefined ? `${message.params.progress}` : `${message.params.progress}/${message.params.total}`;
      view.dirty.add('ledger');
    }
  }
  if (message.method === 'notifications/cancelled') {
    // A cancellation names the request the sender had sent: outbound from its side.
    const ownDirection = direction === 'outbound' ? 'outbound' : 'inbound';
    const row = model.requests.get(`${event.sessionId}|${ownDirection}|${message.params?.requestId}`);
    if (row !== undefined) {
      row.cancellation = message.params?.reason ?? '(no reason given)';
      view.dirty.add('ledger');
    }
  }
}

function connectionFor(sessionId) {
  let connection = model.connections.get(sessionId);
  if (connection === undefined) {
    connection = { id: sessionId, state: 'uninitialized', walk: [], edges: new Set() };
    model.connections.set(sessionId, connection);
    $('#filter-connection').append(new Option(sessionId, sessionId));
    view.dirty.add('connections');
  }
  return connection;
}

function requestFor(sessionId, direction, id, method, at) {
  const key = `${sessionId}|${direction}|${id}`;
  let row = model.requests.get(key);
  if (row === undefined) {
    row = { key, sessionId, direction, id, method, state: 'created', startedAt: at, elapsedMs: 0, progress: '', cancellation: '' };
    model.requests.set(key, row);
  }
  return row;
}

function schedule() {
  if (view.frame !== 0) return;
  view.frame = requestAnimationFrame(() => {
    view.frame = 0;
    if (view.dirty.has('connections')) renderConnections();
    if (view.dirty.has('ledger')) renderLedger();
    if (view.dirty.has('tasks')) renderTasks($('#tasks'), model.tasks, model.taskGraph, model.selected);
    if (view.dirty.has('queues')) renderQueues($('#queues tbody'), model.queues);
    if (view.dirty.has('timeline') && !view.paused) renderTimeline();
    view.dirty.clear();
  });
}

// ---------------------------------------------------------------- connections and diagrams

function renderConnections() {
  const container = $('#connections');
  $('#no-connections').hidden = model.connections.size > 0;
  for (const connection of model.connections.values()) {
    let card = container.querySelector(`[data-session-id="${CSS.escape(connection.id)}"]`);
    if (card === null) {
      card = document.createElement('div');
      card.className = 'connection';
      card.dataset.sessionId = connection.id;
      card.innerHTML = '<div class="connection-head"><span class="name"></span><span class="current"></span></div>';
      card.querySelector('.name').textContent = connection.id;
      card.querySelector('.connection-head').addEventListener('click', () => select(connection.id));
      card.append(diagram(), Object.assign(document.createElement('ol'), { className: 'history' }));
      container.append(card);
    }
    card.dataset.state = connection.state;
    card.classList.toggle('selected', model.selected === connection.id);
    card.querySelector('.current').textContent = LABELS[connection.state] ?? connection.state;
    const visited = new Set(connection.walk.map((step) => step.state));
    for (const node of card.querySelectorAll('.node')) {
      node.classList.toggle('current', node.dataset.stateNode === connection.state);
      node.classList.toggle('visited', visited.has(node.dataset.stateNode));
    }
    for (const edge of card.querySelectorAll('.edge')) edge.classList.toggle('walked', connection.edges.has(edge.dataset.edge));
    const history = card.querySelector('.history');
    history.replaceChildren(
      ...connection.walk.map((step) => {
        const item = document.createElement('li');
        item.dataset.state = step.state;
        item.title = step.event;
        item.textContent = LABELS[step.state] ?? step.state;
        return item;
      }),
    );
  }
}

function select(sessionId) {
  model.selected = model.selected === sessionId ? '' : sessionId;
  $('#filter-connection').value = model.selected;
  view.dirty.add('connections').add('ledger').add('timeline').add('tasks');
  schedule();
}

const SVG = 'http://www.w3.org/2000/svg';
const NODE_W = 118;
const NODE_H = 34;
const GAP = 150;

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

// The six states on one row in table order; an edge forward curves below, backward above.
function diagram() {
  const states = model.connectionGraph.states;
  const width = GAP * (states.length - 1) + NODE_W + 20;
  const height = 190;
  const mid = height / 2;
  const root = svg('svg', { class: 'diagram', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'connection state machine' });
  const defs = svg('defs', {});
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }));
  defs.append(marker);
  root.append(defs);
  const x = (state) => 10 + NODE_W / 2 + GAP * states.indexOf(state);
  for (const edge of model.connectionGraph.edges) {
    const from = x(edge.from);
    const to = x(edge.to);
    const span = Math.abs(states.indexOf(edge.to) - states.indexOf(edge.from));
    const forward = to > from;
    const y = forward ? mid + NODE_H / 2 : mid - NODE_H / 2;
    const bend = (forward ? 1 : -1) * (14 + span * 14);
    const path = svg('path', { class: 'edge', d: `M ${from} ${y} Q ${(from + to) / 2} ${y + bend * 2} ${to} ${y}`, 'marker-end': 'url(#arrow)' });
    path.dataset.edge = `${edge.from}>${edge.to}`;
    const title = svg('title', {});
    title.textContent = `${edge.from} → ${edge.to}: ${edge.events.join(', ')}`;
    path.append(title);
    root.append(path);
  }
  for (const state of states) {
    const group = svg('g', { class: 'node' });
    group.dataset.stateNode = state;
    group.append(svg('rect', { x: x(state) - NODE_W / 2, y: mid - NODE_H / 2, width: NODE_W, height: NODE_H, rx: 8 }));
    const label = svg('text', { x: x(state), y: mid });
    label.textContent = LABELS[state] ?? state;
    group.append(label);
    root.append(group);
  }
  return root;
}

// ---------------------------------------------------------------- ledger

function renderLedger() {
  const body = $('#ledger tbody');
  const rows = [...new Set(model.requests.values())].filter((row) => model.selected === '' || row.sessionId === model.selected).slice(-500);
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement('tr');
      tr.dataset.requestId = String(row.id);
      tr.dataset.method = row.method;
      tr.dataset.state = row.state;
      if (row.inputKeys !== undefined) tr.dataset.round = String(row.round ?? '');
      for (const [text, className] of [
        [row.sessionId, ''],
        [row.direction === 'outbound' ? 'out' : 'in', ''],
        [row.currentId === undefined || row.currentId === row.id ? String(row.id) : `${row.id} → ${row.currentId}`, ''],
        [row.method, ''],
        [row.state, `state-${row.state}`],
        [inputText(row), 'input'],
        [`${Math.round(row.elapsedMs)} ms`, ''],
        [row.progress, ''],
        [row.cancellation, 'cancellation'],
      ]) {
        const td = document.createElement('td');
        td.textContent = text;
        td.title = text;
        if (className !== '') td.className = className;
        tr.append(td);
      }
      return tr;
    }),
  );
}

/** The ledger's input column: the MRTR round (counted by the client) and the keys it asked for. */
function inputText(row) {
  if (row.inputKeys === undefined) return '';
  const keys = row.inputKeys.join(', ');
  return row.round === undefined ? `input: ${keys}` : `round ${row.round}: ${keys}`;
}

// ---------------------------------------------------------------- timeline

function matches(event) {
  const connection = $('#filter-connection').value;
  const method = $('#filter-method').value.trim();
  const state = $('#filter-state').value;
  if (connection !== '' && event.sessionId !== connection) return false;
  if (method !== '') {
    const name = event.method ?? event.tool ?? event.message?.method ?? '';
    if (!name.includes(method)) return false;
  }
  if (state !== '' && event.to !== state && event.from !== state) return false;
  return true;
}

function describe(event) {
  switch (event.type) {
    case 'session.transition':
      return ['kind-session', `${LABELS[event.from] ?? event.from} → ${LABELS[event.to] ?? event.to}`, event.event];
    case 'request.transition':
      return [
        'kind-request',
        `${event.direction === 'outbound' ? '→' : '←'} ${event.method} #${event.requestId}`,
        `${event.from} → ${event.to} (${event.event})${event.input?.round === undefined ? '' : ` round ${event.input.round}`}`,
      ];
    case 'task.transition':
      return ['kind-task', `${event.side} task ${event.taskId.slice(0, 8)}… ${event.tool ?? ''}`, `${event.from} → ${event.to} (${event.event})`];
    case 'task-queue':
      return [
        'kind-task',
        `queue ${event.queue}: ${event.event} ${event.taskId.slice(0, 8)}…`,
        event.event === 'settled' ? `attempt ${event.attempt}: ${event.result} in ${Math.round(event.durationMs)} ms` : event.event === 'started' ? `attempt ${event.attempt}` : '',
      ];
    case 'message.in':
    case 'message.out': {
      const message = event.message ?? {};
      const what = message.method ?? (message.error !== undefined ? `error ${message.error.code}` : 'result');
      return ['kind-message', `${event.type === 'message.out' ? 'sent' : 'received'} ${what}`, message.id === undefined ? '' : `id ${message.id}`];
    }
    default:
      return ['kind-diagnostic', 'diagnostic', event.message ?? ''];
  }
}

function renderTimeline() {
  const list = $('#timeline');
  const shown = model.events.filter(matches).slice(-1000);
  list.replaceChildren(
    ...shown.map((event) => {
      const [kind, what, detail] = describe(event);
      const item = document.createElement('li');
      item.className = kind;
      item.dataset.type = event.type;
      for (const text of [`${(event.at / 1000).toFixed(3)} s`, event.sessionId, what, detail]) {
        const span = document.createElement('span');
        span.textContent = text;
        item.append(span);
      }
      return item;
    }),
  );
  list.scrollTop = list.scrollHeight;
  $('#timeline-count').textContent = `${shown.length} of ${model.events.length} events`;
}

// ---------------------------------------------------------------- controls and commands

function wireControls() {
  $('#pause').addEventListener('click', () => {
    view.paused = !view.paused;
    $('#pause').textContent = view.paused ? 'Resume' : 'Pause';
    $('#pause').dataset.paused = String(view.paused);
    if (!view.paused) {
      view.dirty.add('timeline');
      schedule();
    }
  });
  for (const selector of ['#filter-connection', '#filter-method', '#filter-state']) {
    $(selector).addEventListener('input', () => {
      model.selected = $('#filter-connection').value;
      view.dirty.add('timeline').add('ledger').add('connections').add('tasks');
      schedule();
    });
  }
  $('#export').addEventListener('click', () => {
    const blob = new Blob([JSON.stringify(model.events.filter(matches), null, 2)], { type: 'application/json' });
    const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: `statemcp-inspect-${Date.now()}.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });
  for (const button of document.querySelectorAll('[data-command]')) {
    button.addEventListener('click', () => runCommand(button.dataset.command, {}));
  }
  $('#command-run').addEventListener('click', () => {
    const method = $('#command-method').value;
    const name = $('#command-name').value.trim();
    let args = {};
    const text = $('#command-args').value.trim();
    if (text !== '') {
      try {
        args = JSON.parse(text);
      } catch (error) {
        $('#command-output').textContent = `Arguments are not JSON: ${error.message}`;
        return;
      }
    }
    const params = method === 'resources/read' ? { uri: name } : { name, arguments: args };
    runCommand(method, params);
  });
}

let nextCommandId = 1;
function runCommand(method, params) {
  const socket = window.inspectorSocket;
  if (socket === undefined || socket.readyState !== WebSocket.OPEN) return;
  $('#command-output').textContent = `${method} …`;
  socket.send(JSON.stringify({ type: 'command', id: nextCommandId++, method, params }));
}

function showCommandResult(frame) {
  const output = $('#command-output');
  output.dataset.status = frame.error === undefined ? 'ok' : 'error';
  output.textContent = frame.error === undefined ? JSON.stringify(frame.result, null, 2) : `Error: ${frame.error}`;
}
