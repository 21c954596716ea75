// The job-queue view of the inspector page: one row per queue of @statemcp/task-queue seen in the
// inspected process — its depth as last sampled, the jobs queued, the attempts started and how
// they ended, the retries, and the median job latency (queued → first attempt) and attempt
// duration over the last attempts. Fed by the `task-queue` events of the feed.

const KEPT = 200;

/** Records one task-queue event in `queues` (a Map by queue name); returns the queue's entry. */
export function applyQueueEvent(queues, event) {
  let queue = queues.get(event.queue);
  if (queue === undefined) {
    queue = { name: event.queue, depth: undefined, queued: 0, started: 0, retries: 0, results: {}, waits: [], durations: [], at: event.at };
    queues.set(event.queue, queue);
  }
  queue.at = event.at;
  if (event.event === 'queued') queue.queued += 1;
  else if (event.event === 'started') {
    queue.started += 1;
    if (event.attempt > 1) queue.retries += 1;
    if (typeof event.waitMs === 'number') keep(queue.waits, event.waitMs);
  } else if (event.event === 'settled') {
    queue.results[event.result] = (queue.results[event.result] ?? 0) + 1;
    keep(queue.durations, event.durationMs);
  } else if (event.event === 'depth') {
    queue.depth = { waiting: event.waiting + event.prioritized, active: event.active, delayed: event.delayed, failed: event.failed };
  }
  return queue;
}

function keep(list, value) {
  list.push(value);
  if (list.length > KEPT) list.shift();
}

function median(list) {
  if (list.length === 0) return undefined;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function ms(value) {
  return value === undefined ? '–' : `${Math.round(value)} ms`;
}

/** Draws every queue into the table body `body`. */
export function renderQueues(body, queues) {
  body.closest('section').querySelector('.empty').hidden = queues.size > 0;
  body.replaceChildren(
    ...[...queues.values()].map((queue) => {
      const tr = document.createElement('tr');
      tr.dataset.queue = queue.name;
      const depth = queue.depth;
      const results = Object.entries(queue.results)
        .map(([result, count]) => `${result} ${count}`)
        .join(', ');
      for (const [text, name] of [
        [queue.name, 'name'],
        [depth === undefined ? '–' : String(depth.waiting), 'waiting'],
        [depth === undefined ? '–' : String(depth.active), 'active'],
        [depth === undefined ? '–' : String(depth.delayed), 'delayed'],
        [String(queue.queued), 'queued'],
        [String(queue.started), 'started'],
        [String(queue.retries), 'retries'],
        [ms(median(queue.waits)), 'latency'],
        [ms(median(queue.durations)), 'duration'],
        [results, 'results'],
      ]) {
        const td = document.createElement('td');
        td.className = name;
        td.textContent = text;
        td.title = text;
        tr.append(td);
      }
      return tr;
    }),
  );
}
