import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createToolStreamStore, type ToolStreamStore, type ToolStreamStoreOptions, type ToolStreamStoreState } from '../core/stream/store';

/**
 * Anything that delivers a session's events: `subscribe(listener)` returns an unsubscribe function.
 *
 * @example
 * const source: ToolEventSource = { subscribe: (listener) => socket.on('message', (data) => listener(JSON.parse(data))) };
 */
export interface ToolEventSource {
  subscribe(listener: (event: unknown) => void): () => void;
}

/**
 * Options of {@link useToolStream}: the store's options, and the session's identity.
 *
 * @example
 * const state = useToolStream(session, { key: session.id, coalesce: 'frame', onError: console.warn } satisfies UseToolStreamOptions);
 */
export interface UseToolStreamOptions extends ToolStreamStoreOptions {
  /**
   * The session's identity. The hook subscribes once per key: a new source object with the
   * same key (an inline object, say) does not resubscribe; a new key is a new session, with a
   * new store. Default: one session for the component's life.
   */
  key?: unknown;
  /** Use this store instead of creating one. */
  store?: ToolStreamStore;
}

/**
 * Reduce a session's tool events into a store and return its state (calls, order, closed,
 * dispatch, interrupt). StrictMode-safe, and SSR-safe (the server renders the initial state).
 *
 * @example
 * function Calls({ session }) {
 *   const { calls, order } = useToolStream(session);
 *   return order.map((id) => <p key={id}>{calls[id].name}: {calls[id].status}</p>);
 * }
 */
export function useToolStream(source: ToolEventSource, options: UseToolStreamOptions = {}): ToolStreamStoreState {
  const store = useToolStreamStore(source, options);
  return useSyncExternalStore(store.subscribe, store.getState, store.getInitialState);
}

/**
 * Like `useToolStream`, but returns the store itself and does not re-render on its changes:
 * hand it to `<ToolgateProvider store>` or to the selector hooks.
 *
 * @example
 * function Session({ source }) {
 *   const store = useToolStreamStore(source);
 *   return <ToolgateProvider store={store}><ToolCallList /></ToolgateProvider>;
 * }
 */
export function useToolStreamStore(source: ToolEventSource, options: UseToolStreamOptions = {}): ToolStreamStore {
  const { key = null, store: given } = options;
  // Callbacks are read through a ref, so a new inline onError neither recreates the store nor resubscribes.
  const latest = useRef({ source, options });
  latest.current = { source, options };

  const make = () =>
    given ??
    createToolStreamStore({
      ...options,
      onError: (...args) => latest.current.options.onError?.(...args),
    });
  const [holder, setHolder] = useState(() => ({ key, given, store: make() }));
  let store = holder.store;
  if (holder.key !== key || holder.given !== given) {
    store = make();
    setHolder({ key, given, store });
  }

  useEffect(() => {
    const unsubscribe = latest.current.source.subscribe((event) => store.getState().dispatch(event));
    return unsubscribe;
  }, [store]);
  return store;
}
