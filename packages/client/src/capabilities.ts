/**
 * Works out the capabilities a client declares in `initialize`: what the options say,
 * plus what its registered handlers imply (MCP 2025-11-25 basic/lifecycle §Capability Negotiation: every
 * feature owner MUST declare its capability).
 */
import { cloneJson } from '@statemcp/protocol/internal';
import type { ElicitationSettings, SamplingSettings } from './options.js';
import type { ClientCapabilities } from './types.js';

/** The server-request features a client has handlers for at connect time. */
export interface ImpliedFeatures {
  readonly sampling?: SamplingSettings | undefined;
  readonly elicitation?: ElicitationSettings | undefined;
  readonly roots: boolean;
}

/**
 * Merges declared and implied capabilities into a fresh object. Handlers add their
 * capability (and the sub-flags they were registered with) on top of `declared`, never
 * removing anything the caller declared explicitly.
 *
 * @example
 * ```ts
 * buildCapabilities({}, { sampling: { tools: true }, roots: true });
 * // { sampling: { tools: {} }, roots: { listChanged: true } }
 * ```
 */
export function buildCapabilities(declared: ClientCapabilities | undefined, implied: ImpliedFeatures): ClientCapabilities {
  const capabilities = (declared === undefined ? {} : cloneJson(declared)) as ClientCapabilities;
  if (implied.sampling !== undefined) {
    const sampling = { ...capabilities.sampling };
    if (implied.sampling.tools === true) sampling.tools = sampling.tools ?? {};
    if (implied.sampling.context === true) sampling.context = sampling.context ?? {};
    capabilities.sampling = sampling;
  }
  if (implied.elicitation !== undefined) {
    const elicitation = { ...capabilities.elicitation };
    if (implied.elicitation.form !== false) elicitation.form = elicitation.form ?? {};
    if (implied.elicitation.url === true) elicitation.url = elicitation.url ?? {};
    capabilities.elicitation = elicitation;
  }
  if (implied.roots) capabilities.roots = { ...capabilities.roots, listChanged: true };
  return capabilities;
}

/** The elicitation modes a declared `elicitation` capability allows (`{}` means form only). */
export function elicitationModes(capabilities: ClientCapabilities): { form: boolean; url: boolean } {
  const elicitation = capabilities.elicitation;
  if (elicitation === undefined) return { form: false, url: false };
  const form = elicitation.form !== undefined;
  const url = elicitation.url !== undefined;
  if (!form && !url) return { form: true, url: false };
  return { form, url };
}
