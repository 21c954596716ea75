/** The error an aborted `signal` stands for: its reason when that is an `Error`, else an `AbortError`. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}
