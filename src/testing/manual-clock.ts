/**
 * A clock that moves only when told to, for time limits in tests and stories
 * (docs/architecture.md, "Conventions": tests use fake or injectable clocks, never real time).
 */

import type { AppToolClock } from '../core/app-tools/app-tool-host';

/**
 * A clock that moves only when told: timers fire in order as time is advanced.
 *
 * @example
 * const clock: ManualClock = createManualClock();
 * const host = createAppToolHost({ clock, timeoutMs: 1_000 });
 * const result = host.call(request);
 * await clock.advance(1_000); // the call times out now, not in a real second
 */
export interface ManualClock extends AppToolClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: unknown): void;
  /**
   * Move time forward by `ms`, firing each timer that falls due in time order, and let the
   * promises it starts settle before the next one fires.
   */
  advance(ms: number): Promise<void>;
  /** Fire timers, in order, until none is left (at most `limit`). Resolves with how many fired. */
  runAll(limit?: number): Promise<number>;
  /** Let pending promise work settle without moving time. */
  settle(): Promise<void>;
  /** How many timers are waiting. */
  readonly pending: number;
}

/**
 * Options of {@link createManualClock}.
 *
 * @example
 * const clock = createManualClock({ start: Date.UTC(2025, 0, 1) } satisfies ManualClockOptions);
 */
export interface ManualClockOptions {
  /** The starting time. Default 0. */
  start?: number;
  /**
   * How to let promise work settle after each timer. Default: one real macrotask
   * (`setImmediate`, else a `MessageChannel` message, else `setTimeout(0)`), taken when the clock
   * is created, so every microtask queued by the timer has run.
   */
  settle?: () => Promise<void>;
}

function realMacrotask(): () => Promise<void> {
  const g = globalThis as {
    setImmediate?: (callback: () => void) => unknown;
    MessageChannel?: typeof MessageChannel;
    setTimeout: typeof setTimeout;
  };
  const immediate = g.setImmediate;
  if (typeof immediate === 'function') return () => new Promise((resolve) => void immediate(resolve));
  const Channel = g.MessageChannel;
  if (typeof Channel === 'function') {
    return () =>
      new Promise((resolve) => {
        const channel = new Channel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve();
        };
        channel.port2.postMessage(null);
      });
  }
  const timeout = g.setTimeout;
  return () => new Promise((resolve) => void timeout(resolve, 0));
}

/**
 * Create a manual clock: pass it as the host's `clock`, then `await clock.advance(ms)`.
 *
 * @example
 * const clock = createManualClock();
 * const host = createAppToolHost({ clock, timeoutMs: 1000 });
 * const pending = host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'slow', arguments: {} });
 * await clock.advance(1000);
 * expect(await pending).toMatchObject({ ok: false, code: 'TIMEOUT' });
 */
export function createManualClock(options: ManualClockOptions = {}): ManualClock {
  let now = options.start ?? 0;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();
  const settle = options.settle ?? realMacrotask();

  function nextDue(limit: number): [number, { due: number; callback: () => void }] | undefined {
    let best: [number, { due: number; callback: () => void }] | undefined;
    // Map order is creation order, so equal due times fire in the order they were set.
    for (const entry of timers) {
      if (entry[1].due > limit) continue;
      if (best === undefined || entry[1].due < best[1].due) best = entry;
    }
    return best;
  }

  async function fire(entry: [number, { due: number; callback: () => void }]): Promise<void> {
    const [id, timer] = entry;
    timers.delete(id);
    now = Math.max(now, timer.due);
    timer.callback();
    await settle();
  }

  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { due: now + Math.max(0, Number.isFinite(ms) ? ms : 0), callback });
      return id;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    async advance(ms) {
      const target = now + Math.max(0, ms);
      await settle();
      for (let entry = nextDue(target); entry !== undefined; entry = nextDue(target)) await fire(entry);
      now = target;
      await settle();
    },
    async runAll(limit = 100_000) {
      let fired = 0;
      await settle();
      for (let entry = nextDue(Infinity); entry !== undefined && fired < limit; entry = nextDue(Infinity)) {
        await fire(entry);
        fired++;
      }
      return fired;
    },
    settle,
    get pending() {
      return timers.size;
    },
  };
}
