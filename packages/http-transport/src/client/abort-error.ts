/** The error an aborted `signal` stands for: its reason when that is an `Error`, else an `AbortError`. */
export function abortError(signal: AbortSignal): Error {
  return abortReasonError(signal.reason);
}

/** The error an abort with `reason` stands for, as {@link abortError} gives it for a signal aborted with it. */
export function abortReasonError(reason: unknown): Error {
  return reason instanceof Error ? reason : new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}
