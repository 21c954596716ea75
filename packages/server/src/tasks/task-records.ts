/**
 * The records of extension tasks (`io.modelcontextprotocol/tasks`, MCP 2026-07-28): building a
 * new one, moving one through the task machine, its `tasks/get` view, its inspect events, and
 * the default authorization binding. Shared by the in-process runner and the executor's attempts.
 */
import { type DetailedTask, type JsonObject, type RequestId, type Session, type TaskEventType, taskTransition } from '@statemcp/protocol';
import type { RequestExtra } from '../request-extra.js';
import type { StoredTask } from './durable-store.js';

/**
 * The default binding. With a verified principal (`extra.auth`, from the authorization layer)
 * the task belongs to it: the token's subject — or, for a client-credentials token without
 * one, its client — scoped by the issuer, so a new token of the same principal still reaches
 * its tasks and another principal never does. Otherwise an unverified `authInfo` the transport
 * supplied binds by its `subject`, `clientId` or `token`; with neither, the task is unbound.
 */
export function defaultOwner(extra: RequestExtra): string | undefined {
  const principal = extra.auth;
  if (principal !== undefined) {
    const who = principal.subject === undefined ? ['client', principal.clientId] : ['subject', principal.subject];
    return `principal:${JSON.stringify([principal.issuer ?? null, ...who])}`;
  }
  const auth = extra.authInfo as { clientId?: unknown; subject?: unknown; token?: unknown } | undefined | null;
  if (typeof auth !== 'object' || auth === null) return undefined;
  for (const key of ['subject', 'clientId', 'token'] as const) {
    const value = auth[key];
    if (typeof value === 'string' && value !== '') return `${key}:${value}`;
  }
  return undefined;
}

/** 256 random bits in base64url: unguessable task ids (MCP 2025-11-25 basic/utilities/tasks §Security Considerations). */
export function newTaskId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The request a task was created by, for its `task.transition` inspect events. */
export interface TaskOrigin {
  readonly session: Session;
  readonly requestId: RequestId;
  readonly tool: string;
}

export function withoutResultType(result: JsonObject): JsonObject {
  const { resultType: _r, ...rest } = result;
  return rest;
}

/** The record after `event` (through the task machine); unchanged when the machine ignores it. */
export function moved(record: StoredTask, event: TaskEventType, now: number, statusMessage?: string): StoredTask {
  const step = taskTransition(record.task.status, event);
  if (!step.changed) return record;
  const task = { ...record.task, status: step.status, lastUpdatedAt: new Date(now).toISOString() };
  if (statusMessage !== undefined) task.statusMessage = statusMessage;
  return { ...record, task };
}

/**
 * The one place a task's move becomes a `task.transition` inspect event (of the session that
 * created it): after the store holds the new status. Nothing is built when nobody inspects.
 */
export function reportMove(origin: TaskOrigin, before: StoredTask, after: StoredTask, event: TaskEventType | 'created' | undefined): void {
  if (event === undefined) return; // no status change (input keys added or answered in part)
  origin.session.reportTaskTransition(() => {
    const elapsedMs = Date.parse(after.task.lastUpdatedAt) - Date.parse(after.task.createdAt);
    return {
      taskId: after.task.taskId,
      side: 'server',
      requestId: origin.requestId,
      tool: origin.tool,
      from: before.task.status,
      to: after.task.status,
      event,
      ...(Number.isFinite(elapsedMs) ? { elapsedMs } : {}),
    };
  });
}

/** The `tasks/get` / `notifications/tasks` view of a record. */
export function detailed(record: StoredTask): DetailedTask {
  const out: DetailedTask = { resultType: 'complete', ...record.task };
  if (record.task.status === 'input_required') out.inputRequests = { ...record.inputRequests };
  if (record.task.status === 'completed' && record.result !== undefined) out.result = record.result;
  if (record.task.status === 'failed' && record.error !== undefined) out.error = record.error;
  return out;
}
