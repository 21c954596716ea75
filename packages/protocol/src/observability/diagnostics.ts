/**
 * `node:diagnostics_channel` channels for production telemetry that costs nothing when no
 * one subscribes. Subscribe with `diagnostics_channel.subscribe('statemcp:session.transition', fn)`.
 *
 * | channel                       | payload                                |
 * |-------------------------------|----------------------------------------|
 * | `statemcp:session.transition` | InspectEvent of type session.transition |
 * | `statemcp:request.transition` | InspectEvent of type request.transition |
 * | `statemcp:task.transition`    | InspectEvent of type task.transition    |
 * | `statemcp:message.in`         | InspectEvent of type message.in         |
 * | `statemcp:message.out`        | InspectEvent of type message.out        |
 * | `statemcp:diagnostic`         | InspectEvent of type diagnostic         |
 *
 * The module imports no Node built-in: `node:diagnostics_channel` is looked up through
 * `process.getBuiltinModule` on first use, so browsers and other runtimes without it load this
 * package unchanged (and publish nothing). After the first use the hot path is one property read.
 */
import type { InspectEvent } from './events.js';

/**
 * The channel name for each inspect event type.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTIC_CHANNEL_NAMES } from '@statemcp/protocol';
 * subscribe(DIAGNOSTIC_CHANNEL_NAMES['session.transition'], (event) => console.log(event));
 * ```
 */
export const DIAGNOSTIC_CHANNEL_NAMES = Object.freeze({
  'session.transition': 'statemcp:session.transition',
  'request.transition': 'statemcp:request.transition',
  'task.transition': 'statemcp:task.transition',
  'message.in': 'statemcp:message.in',
  'message.out': 'statemcp:message.out',
  diagnostic: 'statemcp:diagnostic',
} as const satisfies Record<InspectEvent['type'], string>);

/** The part of a `node:diagnostics_channel` Channel used here. */
interface ChannelLike {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

type Channels = Readonly<Record<InspectEvent['type'], ChannelLike>>;

interface DiagnosticsChannelModule {
  channel(name: string): ChannelLike;
}

interface BuiltinLoader {
  getBuiltinModule?: (id: string) => unknown;
}

const NO_SUBSCRIBERS: ChannelLike = Object.freeze({ hasSubscribers: false, publish: () => undefined });

let channels: Channels | undefined;

/**
 * `node:diagnostics_channel`, or `undefined` where the runtime has no such built-in — including
 * runtimes whose stand-in `process` throws on `getBuiltinModule` (Next.js's Edge runtime).
 */
function builtinDiagnosticsChannel(): DiagnosticsChannelModule | undefined {
  try {
    const loader = (globalThis as { process?: BuiltinLoader }).process;
    return loader?.getBuiltinModule?.('node:diagnostics_channel') as DiagnosticsChannelModule | undefined;
  } catch {
    return undefined;
  }
}

/** Resolves the channels once: the real ones on Node, inert ones where the built-in is absent. */
function resolveChannels(): Channels {
  const module = builtinDiagnosticsChannel();
  const make = (name: string): ChannelLike => (module === undefined ? NO_SUBSCRIBERS : module.channel(name));
  channels = Object.freeze({
    'session.transition': make(DIAGNOSTIC_CHANNEL_NAMES['session.transition']),
    'request.transition': make(DIAGNOSTIC_CHANNEL_NAMES['request.transition']),
    'task.transition': make(DIAGNOSTIC_CHANNEL_NAMES['task.transition']),
    'message.in': make(DIAGNOSTIC_CHANNEL_NAMES['message.in']),
    'message.out': make(DIAGNOSTIC_CHANNEL_NAMES['message.out']),
    diagnostic: make(DIAGNOSTIC_CHANNEL_NAMES.diagnostic),
  });
  return channels;
}

/** True when anyone listens on the channel of this event type (so the event is worth building). */
export function hasDiagnosticSubscribers(type: InspectEvent['type']): boolean {
  return (channels ?? resolveChannels())[type].hasSubscribers;
}

/** Publishes an event on its channel. */
export function publishDiagnostic(event: InspectEvent): void {
  const channel = (channels ?? resolveChannels())[event.type];
  if (channel.hasSubscribers) channel.publish(event);
}
