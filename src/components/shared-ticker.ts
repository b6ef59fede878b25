import type { ToolgateClock } from '../hooks/use-now';

/**
 * One timer per clock for every live display that shows a running time (the cards' elapsed
 * time): fifty open calls cost one timer, not fifty, and the displays write their text without a
 * React render (see docs/architecture.md, "What loads when"). The timer runs only while something mounted
 * listens, and stops with the last one.
 */
interface Ticker {
  listeners: Set<() => void>;
  handle: unknown;
  running: boolean;
}

const tickers = new WeakMap<ToolgateClock, Map<number, Ticker>>();

/** Call `listener` every `intervalMs` of `clock` until the returned function is called. */
export function onTick(clock: ToolgateClock, intervalMs: number, listener: () => void): () => void {
  let byInterval = tickers.get(clock);
  if (byInterval === undefined) tickers.set(clock, (byInterval = new Map()));
  let ticker = byInterval.get(intervalMs);
  if (ticker === undefined) byInterval.set(intervalMs, (ticker = { listeners: new Set(), handle: undefined, running: false }));
  const own = ticker;
  const tick = () => {
    // A copy: a listener may stop listening (or another start) while they are told.
    for (const told of [...own.listeners]) told();
    own.handle = own.listeners.size > 0 ? clock.setTimeout(tick, intervalMs) : undefined;
    own.running = own.listeners.size > 0;
  };
  own.listeners.add(listener);
  if (!own.running) {
    own.running = true;
    own.handle = clock.setTimeout(tick, intervalMs);
  }
  return () => {
    own.listeners.delete(listener);
    if (own.listeners.size === 0 && own.running) {
      clock.clearTimeout(own.handle);
      own.running = false;
      own.handle = undefined;
    }
  };
}
