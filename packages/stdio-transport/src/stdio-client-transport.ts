/**
 * The client side of stdio: spawns an MCP server as a child process and exchanges
 * newline-delimited JSON-RPC over its stdin/stdout (MCP 2025-11-25 basic/transports §stdio).
 *
 * The transport owns the process tree and nothing of the lifecycle: the session decides
 * *when* to close, this class knows *how*. Closing walks the escalation the specification
 * recommends (MCP 2025-11-25 basic/lifecycle §Shutdown), applied to the whole process tree so that wrappers
 * such as `npx` or `uvx` leave no grandchild behind (the tree is the child's descendants, or
 * with `processGroup: true` its process group; see `process-tree.ts`):
 *
 * ```
 *   close()
 *     │ end stdin ──────────── tree gone? ──yes──▶ done
 *     │   wait closeTimeoutMs        │ no
 *     │ SIGTERM to the tree ── tree gone? ──yes──▶ done
 *     │   wait terminateTimeoutMs    │ no
 *     │ SIGKILL to the tree ── tree gone? ──yes──▶ done
 *     │   wait killTimeoutMs         │ no
 *     └────────────────────────────▶ done (reported as `shutdown-incomplete`)
 *
 *   terminate(): SIGKILL to the tree at once, then the same wait.
 * ```
 *
 * The child's stderr is always drained (a full stderr pipe would otherwise block the
 * server) into a bounded tail kept for diagnostics. A child that exits, crashes or closes
 * its stdout ends the transport: `sink.onClose` reports initiator `remote` (exit code 0) or
 * `error`, with `{ pid, exitCode, signal, stderrTail }` in `details`.
 */
import {
  ConnectionClosedError,
  InvalidArgumentError,
  InvalidStateError,
  MessageTooLargeError,
  TransportError,
  parseJson,
  systemClock,
  type Clock,
  type JsonRpcMessage,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';
import { FrameWriter } from './frame-writer.js';
import { LineFramer, encodeFrame } from './line-framer.js';
import { DescendantTree } from './descendant-tree.js';
import { escalateShutdown, signalTree, type ChildHandle, type ExitInfo, type ShutdownSettings } from './child-shutdown.js';
import { processGroupTree, windowsTree } from './process-tree.js';
import { trackLiveChild, untrackLiveChild } from './parent-exit.js';
import { spawnChild, type SpawnedChild } from './spawn-child.js';
import type { StdioClientDiagnostic, StdioClientStatus, StdioClientTransportOptions } from './stdio-client-options.js';
import { StrayOutputReporter } from './stray-output.js';
import { TailBuffer, lastNonEmptyLine } from './tail-buffer.js';
import { settleWithin } from './timeouts.js';

/** After the child exits, how long stdout may keep delivering buffered output. */
const EXIT_DRAIN_TIMEOUT_MS = 500;
const DIAGNOSTIC_TEXT_LIMIT = 1024;

type CloseInitiator = TransportCloseInfo['initiator'];

type ClientState =
  | { kind: 'idle' }
  | { kind: 'starting'; ready: Promise<void> }
  | { kind: 'open'; handle: ChildHandle }
  | {
      kind: 'closing';
      handle: ChildHandle;
      initiator: CloseInitiator;
      error: Error | undefined;
      /** Set when the child exited on its own with a failure; the error is built when reported, with the full stderr tail. */
      crash: ExitInfo | undefined;
      done: Promise<void>;
    }
  | { kind: 'closed' };

const isWindows = process.platform === 'win32';

/**
 * Spawns an MCP server and talks to it over stdio.
 *
 * @example
 * ```ts
 * import { Client } from '@statemcp/client';
 * import { StdioClientTransport } from '@statemcp/stdio-transport';
 *
 * const transport = new StdioClientTransport({
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-everything'],
 *   onStderr: (chunk) => process.stderr.write(chunk),
 * });
 * const client = new Client({ name: 'example', version: '1.0.0' });
 * await client.connect(transport);
 * console.log(await client.listTools());
 * await client.close(); // stdin closed → SIGTERM → SIGKILL, whole process tree
 * ```
 */
export class StdioClientTransport implements Transport {
  readonly canSendRequests = true;
  /** The child process answers every request or exits: a client's discovery waits for its answer. */
  readonly answersUntilClosed = true;
  readonly #options: StdioClientTransportOptions;
  readonly #clock: Clock;
  readonly #strayOutput: StrayOutputReporter | undefined;
  readonly #stderrTail: TailBuffer;
  readonly #shutdown: ShutdownSettings;
  #state: ClientState = { kind: 'idle' };
  #sink: TransportSink | undefined;
  #pid: number | undefined;
  #exit: ExitInfo | undefined;
  #closeNotified = false;
  #closeNotification: Promise<void> | undefined;

  constructor(options: StdioClientTransportOptions) {
    if (typeof options.command !== 'string' || options.command.length === 0) {
      throw new InvalidArgumentError('StdioClientTransport needs a non-empty command');
    }
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#stderrTail = new TailBuffer(options.stderrTailBytes);
    this.#shutdown = {
      clock: this.#clock,
      closeTimeoutMs: options.closeTimeoutMs,
      terminateTimeoutMs: options.terminateTimeoutMs,
      killTimeoutMs: options.killTimeoutMs,
      diagnostic: (event) => this.#diagnostic(event),
    };
    this.#strayOutput =
      options.strayOutput === 'ignore'
        ? undefined
        : new StrayOutputReporter({
            command: [options.command, ...(options.args ?? [])].join(' '),
            write: (text) => process.stderr.write(text),
            now: () => this.#clock.now(),
          });
  }

  /** Where the transport is in its life. */
  get status(): StdioClientStatus {
    return this.#state.kind;
  }

  /** The child's pid once spawned (kept after exit, for diagnostics). */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** The most recent stderr output of the child (bounded; empty unless `stderr` is `'pipe'`). */
  stderrTail(): string {
    return this.#stderrTail.toString();
  }

  /**
   * Spawns the child and begins delivering its messages to `sink`. Rejects with a
   * `TransportError` when the command cannot be started; `sink.onClose` is then not called.
   */
  async start(sink: TransportSink): Promise<void> {
    if (this.#state.kind !== 'idle') {
      throw new InvalidStateError('StdioClientTransport.start() can be called only once', this.#state.kind);
    }
    this.#sink = sink;
    // Deferred by a microtask so that the state reads `starting` before #spawn can change it.
    const ready = Promise.resolve().then(() => this.#spawn());
    this.#state = { kind: 'starting', ready };
    await ready;
  }

  /**
   * Writes one message to the child's stdin; resolves once handed to the OS. Not `async`: the
   * writer's own promise is returned, so a message costs no extra promise and microtask hops.
   */
  send(message: JsonRpcMessage): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
      case 'starting':
        return Promise.reject(new InvalidStateError('StdioClientTransport.send() before start() completed', state.kind));
      case 'closing':
      case 'closed':
        return Promise.reject(new ConnectionClosedError('The stdio transport is closed', { details: this.#details() }));
      case 'open': {
        let frame: string;
        try {
          frame = encodeFrame(message);
        } catch (error) {
          return Promise.reject(new InvalidArgumentError('The message cannot be serialized as JSON', { cause: error }));
        }
        return state.handle.writer.write(frame);
      }
    }
  }

  /**
   * Closes gracefully: stdin, then SIGTERM, then SIGKILL to the process tree, each after
   * its timeout, until no process of the tree is left. Idempotent; always settles.
   */
  async close(): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
        this.#state = { kind: 'closed' };
        return;
      case 'starting':
        await state.ready.catch(() => undefined);
        return this.close();
      case 'open':
        return this.#beginShutdown(state.handle, 'local', undefined);
      case 'closing':
        return state.done;
      case 'closed':
        return;
    }
  }

  /** Forceful close: SIGKILL to the whole process tree at once, then waits for it to vanish. */
  async terminate(): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
      case 'closed':
        return this.close();
      case 'starting':
        await state.ready.catch(() => undefined);
        return this.terminate();
      case 'open': {
        const done = this.#beginShutdown(state.handle, 'local', undefined);
        await signalTree(state.handle, 'SIGKILL', this.#shutdown);
        return done;
      }
      case 'closing':
        await signalTree(state.handle, 'SIGKILL', this.#shutdown);
        return state.done;
    }
  }

  async #spawn(): Promise<void> {
    const options = this.#options;
    let spawned: SpawnedChild;
    try {
      spawned = await spawnChild(options);
    } catch (error) {
      this.#state = { kind: 'closed' };
      throw error;
    }
    const { child, stdin, stdout, stderr, pid } = spawned;
    this.#pid = pid;

    let resolveExited: (info: ExitInfo) => void = () => undefined;
    const exited = new Promise<ExitInfo>((resolve) => (resolveExited = resolve));
    let resolveStdoutDone: () => void = () => undefined;
    const stdoutDone = new Promise<void>((resolve) => (resolveStdoutDone = resolve));
    const stderrDone =
      stderr === null ? Promise.resolve() : new Promise<void>((resolve) => {
        stderr.once('end', resolve);
        stderr.once('close', resolve);
      });

    const framerOptions = options.maxMessageSize === undefined ? {} : { maxMessageSize: options.maxMessageSize };
    const tree = isWindows
      ? windowsTree(child, pid, () => handle.exit !== undefined)
      : options.processGroup === true
        ? processGroupTree(pid)
        : await DescendantTree.forChild(pid);
    const handle: ChildHandle = {
      child,
      pid,
      tree,
      writer: new FrameWriter(stdin, (cause) =>
        new ConnectionClosedError('The server process no longer accepts input', { cause, details: this.#details() }),
      ),
      framer: new LineFramer(
        {
          onLine: (text) => this.#deliver(text),
          onOversized: (size, max) =>
            this.#fail(handle, new MessageTooLargeError(`A message from the server exceeded ${max} bytes (at least ${size} bytes)`)),
        },
        framerOptions,
      ),
      exit: undefined,
      exited,
      signalled: false,
      stdoutEnded: false,
      outputDone: Promise.all([stdoutDone, stderrDone]).then(() => undefined),
    };

    stdin.on('error', (error) => this.#diagnostic({ type: 'stream-error', stream: 'stdin', error }));
    stdout.on('data', (chunk: Buffer) => handle.framer.push(chunk));
    const onStdoutEnd = (): void => {
      if (handle.stdoutEnded) return;
      handle.stdoutEnded = true;
      handle.framer.end();
      resolveStdoutDone();
      // The server closed its stdout while alive: it is shutting down (MCP 2025-11-25 basic/lifecycle).
      if (this.#state.kind === 'open' && handle.exit === undefined) void this.#beginShutdown(handle, 'remote', undefined);
    };
    stdout.on('end', onStdoutEnd);
    stdout.on('close', onStdoutEnd);
    stdout.on('error', (error) => {
      this.#diagnostic({ type: 'stream-error', stream: 'stdout', error });
      onStdoutEnd();
    });
    if (stderr !== null) {
      stderr.on('data', (chunk: Buffer) => {
        this.#stderrTail.write(chunk);
        if (options.onStderr !== undefined) {
          try {
            options.onStderr(chunk);
          } catch {
            // A forwarding callback must not break draining.
          }
        }
      });
      stderr.on('error', (error) => this.#diagnostic({ type: 'stream-error', stream: 'stderr', error }));
    }
    child.on('error', (error) => this.#sinkError(new TransportError(`Server process error: ${error.message}`, { cause: error })));
    child.once('exit', (exitCode, signal) => {
      const info: ExitInfo = { exitCode, signal };
      handle.exit = info;
      this.#exit = info;
      resolveExited(info);
      this.#diagnostic({ type: 'exit', pid, exitCode, signal });
      const state = this.#state;
      const crashed = exitCode !== 0 && !handle.signalled;
      if (state.kind === 'open') {
        void this.#beginShutdown(handle, crashed ? 'error' : 'remote', undefined, crashed ? info : undefined);
      } else if (state.kind === 'closing' && state.initiator === 'remote' && state.error === undefined && crashed) {
        // stdout ended a moment before the exit was reported: the exit status tells what it was.
        this.#state = { ...state, initiator: 'error', crash: info };
      }
      // A local close reports once the whole tree is gone (end of #escalate); a remote or
      // failed one at once, so that pending requests reject without waiting for the reaping.
      const now = this.#state;
      if (!(now.kind === 'closing' && now.initiator === 'local')) void this.#notifyCloseAfterDrain(handle);
    });

    if (options.killOnParentExit !== false) trackLiveChild(tree);
    this.#state = { kind: 'open', handle };
    this.#diagnostic({ type: 'spawned', pid });
  }

  #deliver(text: string): void {
    if (this.#closeNotified || this.#sink === undefined) return;
    const parsed = parseJson(text);
    try {
      if (parsed.ok) {
        this.#sink.onMessage(parsed.value);
        return;
      }
      this.#diagnostic({
        type: 'malformed-line',
        text: text.length > DIAGNOSTIC_TEXT_LIMIT ? text.slice(0, DIAGNOSTIC_TEXT_LIMIT) : text,
        length: text.length,
        reason: parsed.reason,
      });
      this.#strayOutput?.report(text);
      this.#sink.onMalformed?.(text, parsed.reason);
    } catch (error) {
      this.#sinkError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #fail(handle: ChildHandle, error: Error): void {
    if (this.#state.kind === 'open') void this.#beginShutdown(handle, 'error', error);
  }

  #beginShutdown(handle: ChildHandle, initiator: CloseInitiator, error: Error | undefined, crash?: ExitInfo): Promise<void> {
    const state = this.#state;
    if (state.kind === 'closing') return state.done;
    if (state.kind !== 'open') return Promise.resolve();
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    this.#state = { kind: 'closing', handle, initiator, error, crash, done };
    void this.#escalate(handle).finally(resolveDone);
    return done;
  }

  /** The shutdown escalation drawn in the module comment, then the close report. Never rejects. */
  async #escalate(handle: ChildHandle): Promise<void> {
    try {
      await escalateShutdown(handle, this.#shutdown);
    } catch (error) {
      this.#sinkError(new TransportError(`Shutdown of the server process failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
    } finally {
      untrackLiveChild(handle.tree);
      handle.writer.fail(() => new ConnectionClosedError('The stdio transport is closed', { details: this.#details() }));
      await settleWithin(this.#clock, handle.outputDone, EXIT_DRAIN_TIMEOUT_MS);
      await this.#closeNotification;
      handle.child.stdin?.destroy();
      handle.child.stdout?.destroy();
      handle.child.stderr?.destroy();
      const cause = this.#cause();
      this.#state = { kind: 'closed' };
      this.#notifyClose(cause);
    }
  }

  /** After exit: let stdout and stderr deliver what is still buffered (bounded), then report the close. */
  #notifyCloseAfterDrain(handle: ChildHandle): Promise<void> {
    this.#closeNotification ??= settleWithin(this.#clock, handle.outputDone, EXIT_DRAIN_TIMEOUT_MS).then(() => this.#notifyClose(this.#cause()));
    return this.#closeNotification;
  }

  /** Why the transport is closing, as recorded when shutdown began. */
  #cause(): { initiator: CloseInitiator; error: Error | undefined } {
    const state = this.#state;
    if (state.kind !== 'closing') return { initiator: 'local', error: undefined };
    const error = state.error ?? (state.crash === undefined ? undefined : this.#exitError(state.crash));
    return { initiator: state.initiator, error };
  }

  /** Calls `sink.onClose` exactly once. */
  #notifyClose(cause: { initiator: CloseInitiator; error: Error | undefined }): void {
    if (this.#closeNotified) return;
    this.#closeNotified = true;
    const info: TransportCloseInfo = { initiator: cause.initiator, details: this.#details() };
    if (cause.error !== undefined) info.error = cause.error;
    try {
      this.#sink?.onClose(info);
    } catch {
      // The sink's failure to handle a close must not break the shutdown.
    }
  }

  #details(): Record<string, unknown> {
    return {
      pid: this.#pid,
      exitCode: this.#exit?.exitCode ?? null,
      signal: this.#exit?.signal ?? null,
      stderrTail: this.stderrTail(),
    };
  }

  #exitError(info: ExitInfo): Error {
    const how = info.signal !== null ? `was killed by ${info.signal}` : `exited with code ${String(info.exitCode)}`;
    const lastLine = lastNonEmptyLine(this.stderrTail());
    const suffix = lastLine === undefined ? '' : `; last stderr line: ${lastLine}`;
    return new TransportError(`The server process ${how}${suffix}`, { cause: { ...info } });
  }

  #sinkError(error: Error): void {
    try {
      this.#sink?.onError?.(error);
    } catch {
      // Diagnostics must not throw into stream handlers.
    }
  }

  #diagnostic(event: StdioClientDiagnostic): void {
    if (this.#options.onDiagnostic === undefined) return;
    try {
      this.#options.onDiagnostic(event);
    } catch {
      // Diagnostics must not throw into stream handlers.
    }
  }
}
