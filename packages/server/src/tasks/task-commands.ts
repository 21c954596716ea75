/**
 * Commands for a running task from any instance of a cluster (tasks extension, scale-out). A
 * task's record is shared (its `DurableTaskStore`), so `tasks/get` works anywhere; but the
 * handler, its abort switch and the promises waiting on input live in the one process that runs
 * it. `tasks/cancel` and `tasks/update` are therefore applied there, by that instance, whatever
 * instance received them: one writer per live task, so its stored state moves exactly once.
 *
 * ```
 *  B: tasks/cancel ─ publish task:<id> {command, reply} ─▶ A (runs the task): apply, abort the handler
 *  B ◀────────────── publish task:<id>:<reply> {done | error} ──┘
 *  B: nobody subscribed (the task is not running anywhere) ─▶ B applies it to the record itself
 * ```
 *
 * The running instance subscribes `task:<id>` while the handler runs (one channel per running
 * task). A reply that does not come within `replyTimeoutMs` (a lost message, a dying instance)
 * lets the receiving instance apply the command to the record itself.
 */
import { systemClock, type Clock, type JsonObject, type MessageBus } from '@statemcp/protocol';

/** What another instance asks of a running task. */
export type TaskCommand = { readonly kind: 'cancel' } | { readonly kind: 'update'; readonly inputResponses: JsonObject };

/** Applies a command to a task here; rejects when it could not be applied (e.g. the store is down). */
export type ApplyTaskCommand = (taskId: string, command: TaskCommand) => Promise<void>;

interface CommandMessage {
  readonly command: TaskCommand;
  readonly reply: string;
}

type ReplyMessage = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Options of {@link TaskCommands}. */
export interface TaskCommandsOptions {
  readonly bus: MessageBus;
  /** Timers (default the system clock). */
  readonly clock?: Clock;
  /** How long to wait for the running instance's reply, ms (default 5 000). */
  readonly replyTimeoutMs?: number;
}

/** A command message, or undefined for anything else. */
function parseCommand(payload: string): CommandMessage | undefined {
  let message: Partial<CommandMessage> | null;
  try {
    message = JSON.parse(payload) as Partial<CommandMessage> | null;
  } catch {
    return undefined;
  }
  const kind = message?.command?.kind;
  if (typeof message?.reply !== 'string' || (kind !== 'cancel' && kind !== 'update')) return undefined;
  if (kind === 'update' && (typeof message.command?.inputResponses !== 'object' || message.command.inputResponses === null)) return undefined;
  return message as CommandMessage;
}

function taskChannel(taskId: string): string {
  return `task:${taskId}`;
}

/** Routes task commands to the instance running the task, over the bus. */
export class TaskCommands {
  readonly #bus: MessageBus;
  readonly #clock: Clock;
  readonly #replyTimeoutMs: number;

  constructor(options: TaskCommandsOptions) {
    this.#bus = options.bus;
    this.#clock = options.clock ?? systemClock;
    this.#replyTimeoutMs = options.replyTimeoutMs ?? 5_000;
  }

  /**
   * Serves the commands for `taskId` while it runs here; resolves (with the unsubscribe
   * function) once commands published afterwards arrive.
   */
  serve(taskId: string, apply: ApplyTaskCommand): Promise<() => Promise<void>> {
    return this.#bus.subscribe(taskChannel(taskId), (payload) => {
      const message = parseCommand(payload);
      if (message === undefined) return; // not a command of ours: nobody to answer
      void apply(taskId, message.command).then(
        () => this.#answer(message.reply, { ok: true }),
        (error: unknown) => this.#answer(message.reply, { ok: false, message: error instanceof Error ? error.message : String(error) }),
      );
    });
  }

  /**
   * Sends `command` to the instance running `taskId` and resolves once it was applied there:
   * `true`; `false` when no instance runs the task or none answered in time (the caller applies
   * it to the record itself). Rejects when the running instance failed to apply it.
   */
  async send(taskId: string, command: TaskCommand): Promise<boolean> {
    const reply = `${taskChannel(taskId)}:${globalThis.crypto.randomUUID()}`;
    let settle!: (outcome: ReplyMessage | undefined) => void;
    const answered = new Promise<ReplyMessage | undefined>((resolve) => (settle = resolve));
    const unsubscribe = await this.#bus.subscribe(reply, (payload) => {
      try {
        settle(JSON.parse(payload) as ReplyMessage);
      } catch {
        settle({ ok: false, message: 'Invalid reply from the instance running the task' });
      }
    });
    const timer = this.#clock.setTimeout(() => settle(undefined), this.#replyTimeoutMs);
    try {
      const reached = await this.#bus.publish(taskChannel(taskId), JSON.stringify({ command, reply } satisfies CommandMessage));
      if (reached === 0) return false;
      const outcome = await answered;
      if (outcome === undefined) return false;
      if (!outcome.ok) throw new Error(outcome.message);
      return true;
    } finally {
      this.#clock.clearTimeout(timer);
      await unsubscribe();
    }
  }

  async #answer(reply: string, message: ReplyMessage): Promise<void> {
    await Promise.resolve(this.#bus.publish(reply, JSON.stringify(message))).catch(() => undefined);
  }
}
