/**
 * The session's tool-call store: a zustand vanilla store around the reducer, on the kit's one
 * store core (its listeners run under `guardListeners`' policy).
 *
 * `getState()` is always current; with `coalesce: 'frame'` only the notifications are batched,
 * so a burst of fragments costs one render per animation frame while `dispatch` keeps its
 * plain synchronous meaning.
 *
 * Two ways in, kept apart (docs/protocol.md, "Rules of the stream"): `dispatch` takes what a session sends, and the
 * page's own changes (`interrupt`, `markApproval`) are actions of their own, which no session
 * input can reach. A session frame that names one of them is refused (`local-only`).
 */
import type { devtools as zustandDevtools } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { guardListeners, reportListenerError, type ErrorReporter } from '../external-store';
import type { ApprovalMark, LocalToolEvent } from './local-events';
import {
  initialToolStreamState,
  stepLocalToolEvent,
  stepToolEvent,
  type ToolEventIssue,
  type ToolEventVerdict,
  type ToolStreamState,
  type ToolStreamStateOptions,
} from './reducer';
import type { ToolEventWarningCode } from './tool-phases';

/**
 * What the store does besides holding the state: reduce a session's event, and the page's own
 * changes (interrupt a turn, mark an approval).
 *
 * @example
 * const { dispatch, interrupt, markApproval }: ToolStreamActions = store.getState();
 * session.subscribe(dispatch);
 * stopButton.onclick = () => interrupt('turn-1');
 * markApproval('c1', { approval: 'awaiting' });
 */
export interface ToolStreamActions {
  /**
   * Reduce one event from the session. Never throws; rejected events go to `onError`. Events only
   * the page may produce are never applied from here, whatever they are called (`local-only`).
   */
  dispatch(event: unknown): void;
  /**
   * The user interrupted `turnId` (every open call when omitted): cancel its open calls here
   * and now, without waiting for the server (docs/protocol.md, "Rules of the stream"). Later server events for those calls
   * change nothing, except a `settled`, kept as `lateOutcome`.
   */
  interrupt(turnId?: string): void;
  /**
   * Mark where a call stands with a person's approval: `awaiting` (its card says "Awaiting
   * approval", never "Running"), then `approved` (with `approvedArguments`, what runs: the
   * snapshot a person approved or edited, or the gate's rewrite), `denied` or `expired`. A decision
   * is final: a later, different mark changes nothing and goes to `onError`.
   *
   * The call's approval fields are derived from its approval record (`client.approvals.records`):
   * `createToolgate` (and the gate or app-tool handler given `calls`) sets them through this action
   * from that record, in one place (docs/architecture.md, "The approval record"). Call it yourself
   * only for a store no client or controller feeds (a story, a test); with a client, answer through
   * its approvals instead, or this call and the record disagree.
   */
  markApproval(callId: string, mark: ApprovalMark): void;
}

/**
 * The codes the tool-call store's `onError` gives: why an event changed nothing (a
 * `ToolEventIssue`), what an applied event showed worth knowing (argument text that is not JSON,
 * final arguments that contradict the stream, a key written twice), or a listener that threw.
 *
 * @example
 * const onError = (reason: string, event: unknown, code: ToolStreamErrorCode) => code === 'local-only' && alarm(reason);
 */
export type ToolStreamErrorCode = ToolEventIssue | ToolEventWarningCode | 'listener-threw';

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
  /**
   * Hear of every event the store takes, accepted or not, at once (never coalesced): a session's
   * (`dispatch`) and the page's own (`interrupt`, `markApproval`), each with the reducer's verdict
   * and the state after it. For tools that watch a session (the devtools' recorder); a store with
   * no tap does no work for it. Returns the function that removes the tap.
   */
  tap(listener: ToolStreamTap): () => void;
}

/**
 * What a {@link ToolStreamStore.tap} hears of one event: where it came from (`session` for
 * `dispatch`, `page` for the page's own changes), the event, the reducer's verdict (why an event
 * was refused or ignored), the state after it and the store's clock when it was taken.
 *
 * @example
 * const stop = store.tap(({ source, event, verdict }) => { if (verdict.outcome === 'rejected') console.warn(source, verdict.reason, event); });
 */
export interface ToolStreamTapEntry {
  readonly source: 'session' | 'page';
  readonly event: unknown;
  readonly verdict: ToolEventVerdict;
  readonly state: ToolStreamState;
  readonly at: number;
}

/**
 * A listener of {@link ToolStreamStore.tap}.
 *
 * @example
 * const listener: ToolStreamTap = (entry) => entries.push(entry);
 */
export type ToolStreamTap = (entry: ToolStreamTapEntry) => void;

/**
 * Options of {@link createToolStreamStore}.
 *
 * @example
 * const options: ToolStreamStoreOptions = { coalesce: 'frame', onError: (reason) => console.warn(reason), devtools: { middleware: devtools, name: 'chat' } };
 */
export interface ToolStreamStoreOptions extends ToolStreamStateOptions {
  /**
   * Told of every event that changed nothing and is worth knowing (malformed, unknown call,
   * after a terminal phase, repeated seq, after close, a frame naming a local event…), of what an
   * applied event showed worth knowing (argument text that is not JSON, final arguments that
   * contradict the streamed text, a key written twice), and of a subscriber that threw (the other
   * subscribers still hear of the change). The kit's one error shape: a sentence, the event (or
   * the value thrown), a code.
   */
  onError?: (reason: string, event: unknown, code: ToolStreamErrorCode) => void;
  /**
   * `'frame'`: notify subscribers of the session's events at most once per animation frame (in
   * a browser; a 16 ms timer elsewhere); the page's own actions (`interrupt`, `markApproval`)
   * still notify at once, with whatever was pending. Default `false`: every accepted event
   * notifies at once. (`<ToolgateProvider>` makes its store with `'frame'` unless told otherwise.)
   */
  coalesce?: false | 'frame';
  /** The clock stamped on calls (default `Date.now`). */
  now?: () => number;
  /** Schedule a coalesced flush (default `requestAnimationFrame`, else a 16 ms timer). */
  scheduleFrame?: (flush: () => void) => void;
  /**
   * Show the store in the Redux DevTools browser extension, through zustand's `devtools`
   * middleware, which the app passes in (`import { devtools } from 'zustand/middleware'`): the
   * kit never imports it, so an app that does not ask for it has no trace of it in its build.
   * `name` tells sessions apart (default `toolgate`). Each accepted event appears as an action
   * named after it (`tool.stream/arguments-delta`). For looking only: jumping back in the
   * extension puts plain JSON copies of the calls into the store.
   */
  devtools?: { middleware: typeof zustandDevtools; name?: string };
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

  const report = (verdict: ToolEventVerdict, event: unknown): void => {
    if (onError === undefined) return;
    try {
      if (verdict.outcome === 'rejected') onError(verdict.reason, event, verdict.issue);
      else if (verdict.outcome === 'applied' && verdict.warning !== undefined) onError(verdict.warning, event, verdict.warningCode ?? 'invalid-arguments');
    } catch {
      // A reporter that throws must not undo or repeat the change it reports.
    }
  };

  let flushNow = (): void => {};
  // The taps (the devtools' recorder): without one, an event costs one size check more.
  const taps = new Set<ToolStreamTap>();
  const tellTaps = (source: ToolStreamTapEntry['source'], event: unknown, verdict: ToolEventVerdict, state: ToolStreamState, at: number): void => {
    const entry: ToolStreamTapEntry = { source, event, verdict, state, at };
    for (const listener of taps) {
      try {
        listener(entry);
      } catch (error) {
        // A tap that throws must not undo the change it heard of, nor keep the others from it.
        reportListenerError(error, listenerErrors, 'a tap of the tool-call store');
      }
    }
  };
  const tap = (listener: ToolStreamTap): (() => void) => {
    taps.add(listener);
    return () => void taps.delete(listener);
  };
  const base = createStore<ToolStreamStoreState>()((_set, get, api) => {
    const commit = (
      step: { state: ToolStreamStoreState; verdict: ToolEventVerdict },
      event: unknown,
      action: () => string,
      source: ToolStreamTapEntry['source'],
      at: number,
    ) => {
      // Through api.setState (not the creator's set): the devtools middleware, attached later,
      // replaces it to record each change. The third argument names the action; zustand ignores it.
      if (step.state !== get()) (api.setState as SetStateNamed)(step.state, true, options.devtools ? action() : undefined);
      report(step.verdict, event);
      if (taps.size > 0) tellTaps(source, event, step.verdict, step.state, at);
    };
    // The page's own change (a person pressed Stop, answered an approval) is told at once even
    // when notifications are coalesced: only the session's stream waits for the next frame.
    const local = (event: LocalToolEvent) => {
      const at = now();
      commit(stepLocalToolEvent(get(), event, { now: at }), event, () => `toolgate.${event.type}`, 'page', at);
      flushNow();
    };
    // Assigned onto the initial state, not spread: its calls come from a prototype (the reducer's).
    return Object.assign(initialToolStreamState(options), {
      dispatch: (event: unknown) => {
        const at = now();
        commit(stepToolEvent(get(), event, { now: at }), event, () => actionName(event), 'session', at);
      },
      interrupt: (turnId?: string) => local(turnId === undefined ? { type: 'interrupt' } : { type: 'interrupt', turnId }),
      markApproval: (callId: string, mark: ApprovalMark) => local({ type: 'approval', callId, mark }),
    });
  });

  // The kit's one listener policy: a subscriber that throws is reported, never stops the others.
  const listenerErrors: ErrorReporter | undefined = onError && ((reason, detail) => onError(reason, detail, 'listener-threw'));
  guardListeners(base, listenerErrors);
  if (options.devtools !== undefined) attachDevtools(base, options.devtools);
  if (!coalesce) return Object.assign(base, { flush: () => {}, tap });
  const coalesced = guardListeners(coalesceNotifications(base, options.scheduleFrame ?? defaultScheduleFrame), listenerErrors);
  flushNow = coalesced.flush;
  return Object.assign(coalesced, { tap });
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
  try {
    const { type, phase } = (event ?? {}) as { type?: unknown; phase?: unknown };
    return typeof phase === 'string' ? `${String(type)}/${phase}` : String(type);
  } catch {
    return 'unreadable event';
  }
}

/** zustand's devtools middleware, the app's own, on a store that already exists. */
function attachDevtools(store: StoreApi<ToolStreamStoreState>, options: { middleware: typeof zustandDevtools; name?: string }): void {
  const { middleware, name = 'toolgate' } = (options ?? {}) as { middleware?: unknown; name?: string };
  if (typeof middleware !== 'function') {
    throw new TypeError("createToolStreamStore: pass devtools as { middleware: devtools } from 'zustand/middleware'");
  }
  // The middleware wraps a state creator: given the store's own set, get and api, it patches
  // api.setState to report to the extension and returns the creator's state (the current one).
  const attach = (middleware as typeof zustandDevtools)(() => store.getState(), { name, enabled: true }) as unknown as (
    set: StoreApi<ToolStreamStoreState>['setState'],
    get: () => ToolStreamStoreState,
    api: StoreApi<ToolStreamStoreState>,
  ) => unknown;
  attach(store.setState, store.getState, store);
}
