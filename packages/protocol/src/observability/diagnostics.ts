/**
 * `node:diagnostics_channel` channels for production telemetry that costs nothing when no
 * one subscribes. Subscribe with `diagnostics_channel.subscribe('statemcp:session.transition', fn)`.
 *
 * | channel                       | payload                                |
 * |-------------------------------|----------------------------------------|
 * | `statemcp:session.transition` | InspectEvent of type session.transition |
 * | `statemcp:request.transition` | InspectEvent of type request.transition |
 * | `statemcp:message.in`         | InspectEvent of type message.in         |
 * | `statemcp:message.out`        | InspectEvent of type message.out        |
 * | `statemcp:diagnostic`         | InspectEvent of type diagnostic         |
 */
import * as diagnosticsChannel from 'node:diagnostics_channel';
import type { InspectEvent } from './events.js';

export const DIAGNOSTIC_CHANNELS = Object.freeze({
  sessionTransition: diagnosticsChannel.channel('statemcp:session.transition'),
  requestTransition: diagnosticsChannel.channel('statemcp:request.transition'),
  messageIn: diagnosticsChannel.channel('statemcp:message.in'),
  messageOut: diagnosticsChannel.channel('statemcp:message.out'),
  diagnostic: diagnosticsChannel.channel('statemcp:diagnostic'),
});

const BY_TYPE = {
  'session.transition': DIAGNOSTIC_CHANNELS.sessionTransition,
  'request.transition': DIAGNOSTIC_CHANNELS.requestTransition,
  'message.in': DIAGNOSTIC_CHANNELS.messageIn,
  'message.out': DIAGNOSTIC_CHANNELS.messageOut,
  diagnostic: DIAGNOSTIC_CHANNELS.diagnostic,
} as const;

/** True when anyone listens on the channel of this event type (so the event is worth building). */
export function hasDiagnosticSubscribers(type: InspectEvent['type']): boolean {
  return BY_TYPE[type].hasSubscribers;
}

/** Publishes an event on its channel. */
export function publishDiagnostic(event: InspectEvent): void {
  const channel = BY_TYPE[event.type];
  if (channel.hasSubscribers) channel.publish(event);
}
