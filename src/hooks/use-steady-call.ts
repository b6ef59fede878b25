/**
 * What a call's card shows, held steady: a call that starts and ends within a frame or two shows
 * its end only, never a state that was on screen for a few milliseconds (docs/architecture.md,
 * "From an event to a card").
 *
 * Commit coalescing, not a minimum display time: a status the call has not shown yet and may leave
 * at once (`pending`, `streaming`, `issued`) waits two animation frames before it is shown, and a
 * newer state replaces it meanwhile; an ending (`settled`, `cancelled`, `failed`) is shown at once.
 * So an ending is never delayed (a minimum display time would hold a finished call's result back to
 * keep a "Running" badge up), a call that runs longer than two frames is shown running after 33 ms,
 * and no change of the same status waits (argument fragments stream as they come). The store's own
 * `coalesce: 'frame'` merges events within one frame only, and is off outside the provider.
 */
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { isTerminalStatus, type ToolCallStatus } from '../core/stream/call-status';
import type { ToolCall } from '../core/stream/tool-call';

/**
 * Whether the cards below hold their calls steady (`<ToolgateProvider steady>`). On unless turned
 * off (`steady={false}`): a card then draws a new running or streaming state two frames late, so
 * code that reads the page right after an event waits for the state it expects.
 */
export const SteadyCallsContext = createContext(true);

const noSubscription = () => () => {};
const clientSnapshot = () => false;
const serverSnapshot = () => true;

/** How many animation frames a new transient status waits before it is shown. */
const HOLD_FRAMES = 2;

type Frame = (callback: () => void) => () => void;

/** The next animation frame; where there is none (a test environment, a hidden page's fallback), a 16 ms timer. */
const nextFrame: Frame = (callback) => {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(callback, 16);
  return () => clearTimeout(id);
};

/**
 * The call to draw: `live` itself, or, while a new transient status waits its frames, what was
 * drawn before it (`undefined` for a call not drawn yet: draw nothing).
 */
export function useSteadyCall(live: ToolCall | undefined, steady?: boolean): ToolCall | undefined {
  const on = useContext(SteadyCallsContext);
  // On the server and while hydrating, draw what the store holds: the server runs no effect that
  // would ever show a held state, and hydration must draw what the server did. The status drawn
  // then counts as shown, so the first render after hydration keeps it.
  const hydrating = useSyncExternalStore(noSubscription, clientSnapshot, serverSnapshot);
  const holding = (steady ?? on) && !hydrating;
  // The status the person has been shown; a record of that status is drawn as it comes.
  const [shownStatus, setShownStatus] = useState<ToolCallStatus | undefined>(() => (live !== undefined && isTerminalStatus(live.status) ? live.status : undefined));
  const lastDrawn = useRef<ToolCall | undefined>(undefined);
  const atOnce = !holding || live === undefined || isTerminalStatus(live.status) || live.status === shownStatus;
  if (atOnce && live !== undefined && live.status !== shownStatus) setShownStatus(live.status);
  const drawn = atOnce ? live : lastDrawn.current;
  useEffect(() => {
    lastDrawn.current = drawn;
  });
  const waitingFor = atOnce || live === undefined ? undefined : live.status;
  useEffect(() => {
    if (waitingFor === undefined) return;
    let frames = 0;
    let cancel = () => {};
    const tick = () => {
      frames += 1;
      if (frames >= HOLD_FRAMES) setShownStatus(waitingFor);
      else cancel = nextFrame(tick);
    };
    cancel = nextFrame(tick);
    return () => cancel();
  }, [waitingFor]);
  return drawn;
}
