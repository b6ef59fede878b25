import { useEffect, useRef, useState } from 'react';
import type { ToolStreamStore, ToolStreamStoreState } from '../core/stream/store';
import { useToolgateStore } from '../provider/context';
import { statusText, useLabels } from '../wording/labels';
import { systemClock, type ToolgateClock } from './use-now';
import { callOf } from '../core/stream/reducer';

/**
 * Options of {@link useStatusAnnouncer}.
 *
 * @example
 * const message = useStatusAnnouncer({ throttleMs: 2000 } satisfies UseStatusAnnouncerOptions);
 */
export interface UseStatusAnnouncerOptions {
  /** The store to watch (default: the provider's). */
  store?: ToolStreamStore;
  /** At most one announcement per this many ms; changes in between are read out together. Default 1000. */
  throttleMs?: number;
  /** Inject a manual clock in tests. */
  clock?: ToolgateClock;
}

/**
 * The text for a polite live region: each call's status changes (`search: Running`), throttled
 * so a burst of calls is read out as one message, not a flood. Streaming fragments are not
 * announced, only the status they lead to; calls already present when the hook mounts are not
 * announced either.
 *
 * @example
 * const message = useStatusAnnouncer({ throttleMs: 2000 });
 * return <div role="status" aria-live="polite">{message}</div>;
 */
export function useStatusAnnouncer(options: UseStatusAnnouncerOptions = {}): string {
  const store = useToolgateStore(options.store);
  const labels = useLabels();
  const { throttleMs = 1000, clock = systemClock } = options;
  // Kept with its store: a new session's store starts silent, never with the old one's words.
  const [message, setMessage] = useState({ store, text: '' });
  const labelsRef = useRef(labels);
  labelsRef.current = labels;

  useEffect(() => {
    const seen = new Map<string, string>();
    const note = (state: ToolStreamStoreState, queue?: Map<string, string>) => {
      for (const id of state.order) {
        const call = callOf(state, id);
        if (!call || call.status === 'streaming') continue;
        const text = statusText(labelsRef.current, call);
        if (seen.get(id) !== text) queue?.set(id, labelsRef.current.announce(call.name, text));
        seen.set(id, text);
      }
    };
    note(store.getState());
    let closed = store.getState().closed;
    const queue = new Map<string, string>();
    let last = -Infinity;
    let timer: unknown;
    const flush = () => {
      timer = undefined;
      if (queue.size === 0) return;
      last = clock.now();
      const text = [...queue.values()].join('. ');
      queue.clear();
      // The same words twice would not be read again: vary them invisibly.
      setMessage((previous) => ({ store, text: previous.store === store && previous.text === text ? `${text}\u00a0` : text }));
    };
    const unsubscribe = store.subscribe((state) => {
      note(state, queue);
      if (state.closed && !closed) queue.set('', labelsRef.current.closed);
      closed = state.closed;
      if (queue.size === 0 || timer !== undefined) return;
      const wait = last + throttleMs - clock.now();
      if (wait <= 0) flush();
      else timer = clock.setTimeout(flush, wait);
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) clock.clearTimeout(timer);
    };
  }, [store, throttleMs, clock]);

  return message.store === store ? message.text : '';
}
