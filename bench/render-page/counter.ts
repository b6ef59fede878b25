import type { ProfilerOnRenderCallback } from 'react';

/**
 * Counts the renders of each call's item from its `<Profiler>`, and sorts them by whether the
 * call had changed since the item's previous render. `current(id)` must return the object the
 * item rendered from (the store's call object, the naive list's array element): both lists keep
 * a call's object as long as it does not change.
 */
export class RenderCounter {
  readonly perCall = new Map<string, number>();
  changed = 0;
  unchanged = 0;
  clock = 0;
  commits = 0;
  reactMs = 0;
  private readonly last = new Map<string, unknown>();
  private readonly ticks = new Map<string, number>();

  constructor(private readonly current: (callId: string) => unknown) {}

  /** For each item's `<Profiler>`. */
  readonly onItemRender: ProfilerOnRenderCallback = (id, phase) => {
    this.perCall.set(id, (this.perCall.get(id) ?? 0) + 1);
    const call = this.current(id);
    if (phase !== 'mount') {
      const ticks = this.ticks.get(id) ?? 0;
      if (call !== this.last.get(id)) this.changed++;
      else if (ticks > 0) {
        this.ticks.set(id, ticks - 1);
        this.clock++;
      } else this.unchanged++;
    }
    this.last.set(id, call);
  };

  /** For the `<Profiler>` around the whole list. */
  readonly onRootRender: ProfilerOnRenderCallback = (_id, _phase, actualDuration) => {
    this.commits++;
    this.reactMs += actualDuration;
  };

  /** The item's elapsed-time clock was read: a render from it shows a new time, not a new call. */
  tick(id: string): void {
    this.ticks.set(id, (this.ticks.get(id) ?? 0) + 1);
  }
}
