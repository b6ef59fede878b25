import { useEffect, useState } from 'react';

/**
 * A clock for the kit's live displays: the host's `{ now, setTimeout, clearTimeout }` shape, so a manual clock fits.
 *
 * @example
 * const clock: ToolgateClock = createManualClock(); // from toolgate/testing: advance it by hand
 * <ToolCallList clock={clock} />
 */
export interface ToolgateClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock.
 *
 * @example
 * const duration = useCallDuration(call, { clock: systemClock });
 */
export const systemClock: ToolgateClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The current time, re-read every `intervalMs` while `active` (and not at all otherwise, so a
 * finished call costs nothing). `undefined` until mounted: server and hydration renders agree.
 *
 * @example
 * const now = useNow(call.status === 'issued');
 */
export function useNow(active: boolean, intervalMs = 1000, clock: ToolgateClock = systemClock): number | undefined {
  const [now, setNow] = useState<number>();
  useEffect(() => {
    if (!active) return;
    let handle: unknown;
    const tick = () => {
      setNow(clock.now());
      handle = clock.setTimeout(tick, intervalMs);
    };
    tick();
    return () => clock.clearTimeout(handle);
  }, [active, intervalMs, clock]);
  return now;
}
