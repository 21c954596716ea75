/**
 * Local checks for server-to-client requests that go beyond the runner's table
 * (MCP 2025-11-25 basic/lifecycle §Capability Negotiation, MCP 2025-11-25 client/elicitation): the
 * runner already refuses a method the negotiated
 * revision lacks (`elicitation/create` before 2025-06-18) and a method whose capability the
 * client did not declare (`sampling`, `elicitation`, `roots`). This module adds the
 * sub-capabilities and revision-specific fields: sampling `tools`/`toolChoice` (2025-11-25
 * and `sampling.tools`), and elicitation modes (URL mode needs 2025-11-25 and
 * `elicitation.url`; `{}` means form only). Each refusal is a typed
 * `CapabilityNotSupportedError` raised before anything is sent.
 */
import { CapabilityNotSupportedError, type JsonObject } from '@statemcp/protocol';
import { hasCapability } from '@statemcp/protocol/internal';
import { hasFeature } from '@statemcp/protocol/internal';
import type { CreateMessageRequestParams, ElicitRequestParams } from './wire-types.js';

export interface PeerView {
  readonly version: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** Whether declared capabilities are enforced (the session's `strictCapabilities`). */
  readonly strict: boolean;
}

/** The wire params of `sampling/createMessage` for the peer, or a typed refusal. */
export function createMessageParams(params: CreateMessageRequestParams, peer: PeerView): JsonObject {
  const method = 'sampling/createMessage';
  const wantsTools = params.tools !== undefined || params.toolChoice !== undefined;
  if (wantsTools) {
    if (!hasFeature(peer.version, 'samplingTools')) {
      throw new CapabilityNotSupportedError(method, 'sampling.tools', 'peer', {
        message: `tools and toolChoice in ${method} need protocol revision 2025-11-25 (negotiated ${peer.version})`,
      });
    }
    if (peer.strict && !hasCapability(peer.clientCapabilities, ['sampling', 'tools'])) {
      throw new CapabilityNotSupportedError(method, 'sampling.tools');
    }
  }
  return params;
}

/** The wire params of `elicitation/create` for the peer, or a typed refusal. */
export function elicitParams(params: ElicitRequestParams, peer: PeerView): JsonObject {
  const method = 'elicitation/create';
  const mode = params.mode ?? 'form';
  if (mode === 'url') {
    if (!hasFeature(peer.version, 'urlElicitation')) {
      throw new CapabilityNotSupportedError(method, 'elicitation.url', 'peer', {
        message: `URL-mode elicitation needs protocol revision 2025-11-25 (negotiated ${peer.version})`,
      });
    }
    if (peer.strict && !hasCapability(peer.clientCapabilities, ['elicitation', 'url'])) {
      throw new CapabilityNotSupportedError(method, 'elicitation.url');
    }
    return params;
  }
  if (!hasFeature(peer.version, 'urlElicitation')) {
    // 2025-06-18 has no `mode`: send the form request without it.
    const { mode: _mode, ...rest } = params;
    return rest;
  }
  const declared = peer.clientCapabilities?.elicitation;
  const formOnly = typeof declared === 'object' && declared !== null && !hasCapability(declared, ['form']) && !hasCapability(declared, ['url']);
  if (peer.strict && declared !== undefined && !formOnly && !hasCapability(declared, ['form'])) {
    throw new CapabilityNotSupportedError(method, 'elicitation.form');
  }
  return params;
}
