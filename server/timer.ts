/**
 * Time, injectable: the server never calls the global timers directly, so tests can drive
 * pacing and timeouts with a manual clock instead of waiting.
 */

/** Opaque: whatever the timer's `setTimeout` returned. */
export type TimerHandle = object;

export interface Timer {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

export const systemTimer: Timer = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // Pending server work (a long script, a client-tool timeout) must not keep a test
    // process or a stopped server alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => {
    if (handle !== undefined) clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export interface ManualTimer extends Timer {
  /** Callbacks waiting to fire. */
  readonly pending: number;
  /**
   * Move the clock forward by `ms`, firing due callbacks in order. Between callbacks it lets
   * promise continuations and socket I/O run, so work that a callback resumes can schedule
   * its next step before the clock moves on.
   */
  advance(ms: number): Promise<void>;
}

/** A clock that moves only when told to. */
export function createManualTimer(start = 0): ManualTimer {
  let now = start;
  let nextId = 0;
  const tasks = new Map<object, { due: number; id: number; callback: () => void }>();
  const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

  const earliest = () => {
    let best: [object, { due: number; id: number; callback: () => void }] | undefined;
    for (const entry of tasks) {
      if (!best || entry[1].due < best[1].due || (entry[1].due === best[1].due && entry[1].id < best[1].id)) {
        best = entry;
      }
    }
    return best;
  };

  return {
    now: () => now,
    setTimeout(callback, ms) {
      const handle = {};
      tasks.set(handle, { due: now + Math.max(0, ms), id: nextId++, callback });
      return handle;
    },
    clearTimeout(handle) {
      if (handle !== undefined) tasks.delete(handle);
    },
    get pending() {
      return tasks.size;
    },
    async advance(ms) {
      const target = now + ms;
      await yieldToIo();
      for (;;) {
        const next = earliest();
        if (!next || next[1].due > target) break;
        tasks.delete(next[0]);
        now = Math.max(now, next[1].due);
        next[1].callback();
        await yieldToIo();
      }
      now = target;
      await yieldToIo();
    },
  };
}

/**
 * Wait `ms` on `timer`, or less if `signal` aborts. Resolves `true` when the time passed and
 * `false` when aborted. `ms <= 0` resolves at once (instant pacing).
 */
export function sleep(timer: Timer, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (!(ms > 0)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.clearTimeout(handle);
      resolve(false);
    };
    const handle = timer.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
