import { useMemo, useRef, useSyncExternalStore } from 'react';

/**
 * What the hooks need of a store: zustand's vanilla store API, or anything shaped like it.
 *
 * @example
 * const store: ReadableStore<ToolStreamStoreState> = createToolStreamStore();
 */
export interface ReadableStore<S> {
  getState(): S;
  getInitialState(): S;
  subscribe(listener: (state: S, previous: S) => void): () => void;
}

/**
 * Read a slice of a store, re-rendering only when `equality` says the slice changed.
 *
 * The last selection is kept across renders, so an inline selector that builds a new array
 * (`s => s.order.map(...)`) neither loops nor re-renders when its content is unchanged. The
 * store's initial state is the server snapshot, so server and first client render agree.
 *
 * @example
 * const queued = useStoreSelector(host, (s) => s.queue.length);
 * const names = useStoreSelector(store, (s) => s.order.map((id) => s.calls[id]!.name), shallow);
 */
export function useStoreSelector<S, T>(
  store: ReadableStore<S>,
  selector: (state: S) => T,
  equality: (a: T, b: T) => boolean = Object.is,
): T {
  const last = useRef<{ value: T } | null>(null);
  const [getSnapshot, getServerSnapshot] = useMemo(() => {
    let memoState: S | undefined;
    let memoValue: T;
    let memoized = false;
    const select = (state: S): T => {
      if (memoized && state === memoState) return memoValue;
      const next = selector(state);
      const kept = last.current !== null && equality(last.current.value, next) ? last.current.value : next;
      memoState = state;
      memoValue = kept;
      memoized = true;
      return kept;
    };
    return [() => select(store.getState()), () => select(store.getInitialState())] as const;
  }, [store, selector, equality]);
  const value = useSyncExternalStore(store.subscribe, getSnapshot, getServerSnapshot);
  // Written after render has used the value, so the next selection compares with what was shown.
  last.current = { value };
  return value;
}
