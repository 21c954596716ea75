/**
 * The timers the client and WebSocket transports use, injectable so tests never sleep.
 * Structurally a subset of the protocol package's `Clock`, so a `SimulatedClock` fits.
 */

/** The timers a transport uses. Defaults to {@link systemClock}. */
export interface TransportClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock. Timers are unref'd so a pending reconnect or close never keeps a process alive. */
export const systemClock: TransportClock = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
