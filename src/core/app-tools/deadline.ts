/**
 * A call's time limit (docs/protocol.md, "App tools": `TIMEOUT` is past the client's own limit, which
 * excludes time spent waiting for approval). The clock stops while a person is waited for (the
 * approval, or `ctx.waitForPerson` of a tool that says `waitsForPerson`) and starts again with
 * what was left; nested waits stop it once.
 */

import type { AppToolClock } from './types';

/** A running limit. */
export interface Deadline {
  /** Stop the clock (a person is being waited for). Nested pauses stop it once. */
  pause(): void;
  /** Start it again after the last pause, with the time that was left. */
  resume(): void;
  /** Stop for good: the call has its result. */
  stop(): void;
}

/**
 * Start counting `limitMs` (Infinity: never expires); `expire` runs once when it passes.
 *
 * @example
 * const deadline = startDeadline(clock, 1000, () => answer('TIMEOUT'));
 * deadline.pause(); // waiting for approval: not counted
 * deadline.resume();
 */
export function startDeadline(clock: AppToolClock, limitMs: number, expire: () => void): Deadline {
  let remaining = limitMs;
  let startedAt = 0;
  let timer: unknown;
  let timerSet = false;
  let pauses = 0;
  let stopped = false;

  function arm(): void {
    if (timerSet || stopped || pauses > 0 || !Number.isFinite(remaining)) return;
    startedAt = clock.now();
    timerSet = true;
    timer = clock.setTimeout(() => {
      timerSet = false;
      if (stopped) return;
      stopped = true;
      expire();
    }, remaining);
  }

  function disarm(): void {
    if (!timerSet) return;
    clock.clearTimeout(timer);
    timerSet = false;
  }

  arm();
  return {
    pause() {
      if (stopped || pauses++ > 0 || !timerSet) return;
      disarm();
      remaining = Math.max(0, remaining - (clock.now() - startedAt));
    },
    resume() {
      if (stopped || pauses === 0) return;
      if (--pauses === 0) arm();
    },
    stop() {
      stopped = true;
      disarm();
    },
  };
}
