/**
 * The session's tool-call store: a zustand vanilla store around the reducer.
 *
 * `getState()` is always current; with `coalesce: 'frame'` only the notifications are batched,
 * so a burst of fragments costs one render per animation frame while `dispatch` keeps its
 * plain synchronous meaning.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  initialToolStreamState,
  stepToolEvent,
  type ToolEventIssue,
  type ToolStreamState,
  type ToolStreamStateOptions,
} from './reducer';

/**
 * What the store does besides holding the state: reduce an event, interrupt a turn.
 *
 * @example
 * const { dispatch, interrupt }: ToolStreamActions = store.getState();
 * session.subscribe(dispatch);
 * stopButton.onclick = () => interrupt('turn-1');
 */
export interface ToolStreamActions {
  /** Reduce one event from the session. Never throws; rejected events go to `onError`. */
  dispatch(event: unknown): void;
  /**
   * The user interrupted `turnId` (every open call when omitted): cancel its open calls here
   * and now, without waiting for the server (seed 000). Later server events for those calls
   * change nothing, except a `settled`, kept as `lateOutcome`.
   */
  interrupt(turnId?: string): void;
}

/**
 * The store's state: the reducer's state and the actions.
 *
 * @example
 * const order = useToolCalls((state: ToolStreamStoreState) => state.order);
 */
export type ToolStreamStoreState = ToolStreamState & ToolStreamActions;

/**
 * A session's store: zustand's vanilla store API (`getState`, `subscribe`, `getInitialState`) plus `flush`.
 *
 * @example
 * const store: ToolStreamStore = createToolStreamStore({ coalesce: 'frame' });
 * store.subscribe((state) => render(state));
 * store.flush(); // deliver a pending frame's notification now
 */
export interface ToolStreamStore extends StoreApi<ToolStreamStoreState> {
  /** Deliver pending coalesced notifications now (no-op without coalescing). */
  flush(): void;
}

/**
 * Options of {@link createToolStreamStore}.
 *
 * @example
 * const options: ToolStreamStoreOptions = { coalesce: 'frame', onError: (reason) => console.warn(reason), devtools: { name: 'chat' } };
 */
export interface ToolStreamStoreOptions extends ToolStreamStateOptions {
  /**
   * Told of every event that changed nothing and is worth knowing (malformed, unknown call,
   * after a terminal phase, repeated seq, after close…) and of argument text that is not JSON.
   */
  onError?: (reason: string, event: unknown, issue: ToolEventIssue | 'invalid-arguments') => void;
  /**
   * `'frame'`: notify subscribers at most once per animation frame (in a browser; a 16 ms
   * timer elsewhere). Default `false`: every accepted event notifies at once.
   */
  coalesce?: false | 'frame';
  /** The clock stamped on calls (default `Date.now`). */
  now?: () => number;
  /** Schedule a coalesced flush (default `requestAnimationFrame`, else a 16 ms timer). */
  scheduleFrame?: (flush: () => void) => void;
  /**
   * Show the store in the Redux DevTools browser extension, through zustand's `devtools`
   * middleware: `true`, or `{ name }` to tell sessions apart (default name `toolgate`). Each
   * accepted event appears as an action named after it (`tool.stream/arguments-delta`).
   * `zustand/middleware` is imported on demand, so a store without this option costs nothing;
   * the connection opens a moment after the store is made. For looking only: jumping back in
   * the extension puts plain JSON copies of the calls into the store.
   */
  devtools?: boolean | { name?: string };
}

/**
 * Create the store of one session. A new session gets a new store.
 *
 * @example
 * const store = createToolStreamStore({ onError: (reason) => console.warn(reason) });
 * const off = session.subscribe(store.getState().dispatch);
 * store.getState().interrupt('turn-1');
 */
export function createToolStreamStore(options: ToolStreamStoreOptions = {}): ToolStreamStore {
  const { onError, coalesce = false, now = Date.now } = options;

  const base = createStore<ToolStreamStoreState>()((_set, get, api) => {
    const reduce = (event: unknown) => {
      const { state, verdict } = stepToolEvent(get(), event, { now: now() });
      // Through api.setState (not the creator's set): the devtools middleware, attached later,
      // replaces it to record each change. The third argument names the action; zustand ignores it.
      if (state !== get()) (api.setState as SetStateNamed)(state, true, options.devtools ? actionName(event) : undefined);
      if (verdict.outcome === 'rejected') onError?.(verdict.reason, event, verdict.issue);
      else if (verdict.outcome === 'applied' && verdict.warning !== undefined) onError?.(verdict.warning, event, 'invalid-arguments');
    };
    // Assigned onto the initial state, not spread: its calls come from a prototype (the reducer's).
    return Object.assign(initialToolStreamState(options), {
      dispatch: reduce,
      interrupt: (turnId?: string) => reduce(turnId === undefined ? { type: 'toolgate.interrupt' } : { type: 'toolgate.interrupt', turnId }),
    });
  });

  if (options.devtools) attachDevtools(base, options.devtools === true ? {} : options.devtools);
  if (!coalesce) return Object.assign(base, { flush: () => {} });
  return coalesceNotifications(base, options.scheduleFrame ?? defaultScheduleFrame);
}

type Listener<T> = (state: T, previous: T) => void;

/** Keep `getState` current but tell subscribers at most once per scheduled frame. */
function coalesceNotifications<T>(base: StoreApi<T>, schedule: (flush: () => void) => void): StoreApi<T> & { flush(): void } {
  const listeners = new Set<Listener<T>>();
  let notified = base.getState();
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const current = base.getState();
    if (current === notified) return;
    const previous = notified;
    notified = current;
    for (const listener of listeners) listener(current, previous);
  };

  base.subscribe(() => {
    if (scheduled) return;
    scheduled = true;
    schedule(flush);
  });

  return {
    ...base,
    subscribe(listener: Listener<T>) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush,
  };
}

function defaultScheduleFrame(flush: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
}

type SetStateNamed = (state: ToolStreamStoreState, replace: true, action?: string) => void;

function actionName(event: unknown): string {
  const { type, phase } = (event ?? {}) as { type?: unknown; phase?: unknown };
  return typeof phase === 'string' ? `${String(type)}/${phase}` : String(type);
}

/** zustand's devtools middleware on a store that already exists, loaded only when asked for. */
function attachDevtools(store: StoreApi<ToolStreamStoreState>, { name = 'toolgate' }: { name?: string }): void {
  const setState = store.setState;
  import('zustand/middleware')
    .then(({ devtools }) => {
      // The middleware wraps a state creator: given the store's own set, get and api, it patches
      // api.setState to report to the extension and returns the creator's state (the current one).
      const attach = devtools(() => store.getState(), { name, enabled: true }) as unknown as (
        set: typeof setState,
        get: () => ToolStreamStoreState,
        api: StoreApi<ToolStreamStoreState>,
      ) => unknown;
      attach(setState, store.getState, store);
    })
    .catch(() => {
      // No zustand/middleware: the store works the same without the extension.
    });
}
