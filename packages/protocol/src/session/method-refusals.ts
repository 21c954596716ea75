/**
 * What the session answers a caller whose message the method policy (`method-policy.ts`)
 * does not let out: the policy's verdict as a typed local error. Custom methods (outside the
 * specification, `custom-methods.ts`) are checked here too: a name that cannot be custom, a
 * server without a return channel, a peer that did not declare the method's opt-in.
 */
import { CapabilityNotSupportedError, InvalidArgumentError, InvalidStateError, NoReturnChannelError } from '../errors/errors.js';
import { capabilityName, hasCapability } from '../capabilities/table.js';
import type { ConnectionStateKind } from '../machines/connection-types.js';
import type { Transport } from '../transport/transport.js';
import { customMethodRefusal, customOptInPath, optInOf } from './custom-methods.js';
import { hasReturnChannel, notificationSpec, notificationVerdict, requestSpec, requestVerdict, type MethodPolicyContext } from './method-policy.js';
import type { NotificationOptions, RequestOptions } from './options.js';

/** The policy's context plus the state the errors name. */
export interface RefusalContext extends MethodPolicyContext {
  stateKind(): ConnectionStateKind;
}

/** Why request `method` may not be sent now in this revision, to this peer, over this transport; undefined when it may. */
export function requestRefusal(context: RefusalContext, method: string, options: RequestOptions, transport: Transport): Error | undefined {
  const revision = context.revision();
  const returnChannel = hasReturnChannel(context.role, revision, transport);
  if (options.custom !== undefined && requestSpec(revision, method) === undefined) return customRefusal(context, method, options.custom, options, returnChannel);
  const verdict = requestVerdict(context, method, 'send', returnChannel, options.skipCapabilityCheck === true);
  switch (verdict.kind) {
    case 'allowed':
      return undefined;
    case 'absent':
      return new CapabilityNotSupportedError(method, `protocol revision ${revision.version}`, 'peer', {
        message: `${method} does not exist in the negotiated protocol revision ${revision.version}`,
      });
    case 'wrongDirection':
      return new InvalidStateError(`A ${context.role} cannot send ${method}`, context.stateKind());
    case 'noReturnChannel':
      return noReturnChannel(method);
    case 'undeclared':
      return new CapabilityNotSupportedError(method, capabilityName(verdict.path), verdict.holder);
  }
}

/** Why notification `method` may not be sent in this revision with our capabilities; undefined when it may. */
export function notificationRefusal(context: RefusalContext, method: string, options: NotificationOptions = {}): Error | undefined {
  const revision = context.revision();
  // A notification needs no return channel: a custom one is checked for its name and opt-in only.
  if (options.custom !== undefined && notificationSpec(revision, method) === undefined) return customRefusal(context, method, options.custom, {}, true);
  const verdict = notificationVerdict(context, method);
  switch (verdict.kind) {
    case 'allowed':
      return undefined;
    case 'undeclared':
      return new CapabilityNotSupportedError(method, capabilityName(verdict.path), 'local');
    default:
      return new CapabilityNotSupportedError(method, `protocol revision ${revision.version}`, 'local', {
        message: `${method} does not exist in protocol revision ${revision.version}`,
      });
  }
}

/**
 * Why custom `method` may not be sent: a name that cannot be custom, a server without a
 * return channel, or a peer that did not declare the opt-in (unless checks are relaxed).
 */
function customRefusal(
  context: RefusalContext,
  method: string,
  custom: { readonly optIn?: string | false },
  options: { readonly skipCapabilityCheck?: boolean },
  returnChannel: boolean,
): Error | undefined {
  const naming = customMethodRefusal(method);
  if (naming !== undefined) return new InvalidArgumentError(naming);
  if (!returnChannel) return noReturnChannel(method);
  const id = optInOf(method, custom);
  if (id === undefined || options.skipCapabilityCheck === true || !context.strictCapabilities) return undefined;
  const path = customOptInPath(context.revision().version, id);
  return hasCapability(context.peerCapabilities(), path) ? undefined : new CapabilityNotSupportedError(method, capabilityName(path), 'peer');
}

function noReturnChannel(method: string): Error {
  return new NoReturnChannelError(`Cannot send ${method}: this connection has no channel for server-to-client requests`);
}
