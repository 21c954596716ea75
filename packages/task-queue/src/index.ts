/**
 * `@statemcp/task-queue`: the tasks extension's handlers on a BullMQ job queue. `TaskQueue` is
 * the executor the instances create tasks with; `TaskWorker` runs them in any process.
 */
export { TaskQueue } from './task-queue.js';
export type { TaskQueueOptions } from './task-queue.js';
export { TaskWorker } from './task-worker.js';
export type { TaskWorkerOptions } from './task-worker.js';
export type { TaskQueueClusterConnection, TaskQueueConnectionOptions } from './connection.js';
