/**
 * The confirmation controller: a queue of pending requests shown one at a time, each run through
 * the transition table of `confirmation-machine.ts`. It is an external store made by the kit's
 * one store core (`subscribe/getState/getInitialState`), so the React hook is a thin
 * `useSyncExternalStore` over it, and spoken confirmations, cards and dialogs can all drive the
 * same request (DESIGN conventions 3 and 6).
 *
 * Every status change goes through `fire` (the table), every outcome through `finish` (the one
 * event that leads to it, then the callbacks, then the caller's promise).
 */

import { nextConfirmationStatus, type ConfirmationEvent } from './confirmation-machine';
import { actionsOf, admitRequest, decisionEvent, outcomeEvent, permits, refresh, type Entry } from './confirmation-request';
import { startCheck, startRun, type RunHost } from './confirmation-runs';
import type {
  ConfirmationController,
  ConfirmationControllerOptions,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationState,
  ConfirmationTarget,
  ConfirmationView,
} from './confirmation-types';
import { createExternalStore, reportListenerError, type ExternalStore } from './external-store';
import { fingerprintCanonical, type Fingerprint, type FingerprintOptions } from './fingerprint';
import { reasonOf } from './room';

const EMPTY_QUEUE: readonly ConfirmationView[] = Object.freeze([]);

const INITIAL_STATE: ConfirmationState = Object.freeze({ status: 'idle', current: null, queue: EMPTY_QUEUE, waiting: 0, last: null });

/**
 * Create the confirmation controller: a queue of pending requests shown one at a time, and the
 * room flow for each: snapshot the arguments, review, `confirmTool`, then one `invokeTool`.
 *
 * - Arguments are snapshotted and deep-frozen when the request is taken in (before review);
 *   arguments that are not JSON are refused at once, never shown. The same snapshot is shown,
 *   fingerprinted, confirmed and invoked.
 * - `approve()` is idempotent: one approval gives at most one `confirmTool` and one `invokeTool`.
 * - `deny()` calls nothing in the room; `approve()` and `deny()` work from anywhere (voice, cards).
 * - A rejected `confirmTool` ends `refused`; a definite invoke error `failed`; an unknown one
 *   `uncertain` for a write (never retried by itself) and `failed` for a read.
 * - `done` and `denied` leave at once and the next request is shown; `refused`, `failed` and
 *   `uncertain` stay shown until `dismiss()`, so their message is read.
 * - A listener, `onResult`, `onDeny` or `checkOutcome` that throws is reported through `onError`
 *   (or `console.error`) and never stops the flow.
 *
 * @example
 * const confirmations = createConfirmationController({ room });
 * const outcome = confirmations.request({ toolName: 'transfer', arguments: { to: 'bob', amount: 5 }, descriptor });
 * // in the dialog, or from a spoken "yes":
 * confirmations.approve({ requestId: confirmations.getState().current?.id });
 * await outcome; // { status: 'done', output, fingerprint, confirmationId }
 */
export function createConfirmationController(options: ConfirmationControllerOptions = {}): ConfirmationController {
  const flow = createFlow(options);
  const { queue, store } = flow;
  const fingerprintOptions: FingerprintOptions = 'crypto' in options ? { crypto: options.crypto } : {};
  let counter = 0;

  const request = (input: ConfirmationRequest): Promise<ConfirmationOutcome> => {
    const { entry, promise, refusal } = admitRequest(input, options.room, options.checkOutcome, `confirmation-${++counter}`);
    const signal = input.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (refusal !== undefined) {
      flow.finish(entry, { status: 'refused', reason: refusal });
      return promise;
    }
    flow.admit(entry, signal);
    fingerprintCanonical(entry.canonical, fingerprintOptions).then(
      (fingerprint) => flow.fingerprinted(entry, fingerprint),
      // Refused unless it ended meanwhile (denied, withdrawn): the table decides.
      (error: unknown) => flow.finish(entry, { status: 'refused', reason: reasonOf(error, 'the arguments could not be fingerprinted') }),
    );
    return promise;
  };

  return {
    request,
    approve(target) {
      const entry = queue.shown(target);
      // Idempotent by the table: the first approval leaves `reviewing` synchronously, before any
      // await. A second click, a key repeat or a spoken "yes" at the same moment finds
      // `confirming`, where approving is not allowed, and changes nothing.
      return entry !== null && actionsOf(entry).approve && startRun(flow, entry);
    },
    deny(reason, target) {
      const entry = queue.any(target);
      if (entry === null || !actionsOf(entry).deny) return false;
      // `onClick={deny}` would pass an event as the reason: keep only strings.
      return flow.finish(entry, typeof reason === 'string' ? { status: 'denied', reason } : { status: 'denied' });
    },
    check: (target) => {
      const entry = queue.shown(target);
      return entry !== null && startCheck(flow, entry);
    },
    retry(target) {
      const entry = queue.shown(target);
      if (entry === null || !actionsOf(entry).retry) return false;
      const event = decisionEvent(entry);
      // DESIGN: "a deliberate retry with a new confirmation": the old id is never reused.
      entry.attempt += 1;
      entry.confirmationId = null;
      entry.outcome = null;
      entry.checked = false;
      entry.retryable = false;
      return startRun(flow, entry, event);
    },
    dismiss: (target) => {
      const entry = queue.shown(target);
      return entry !== null && flow.dismiss(entry);
    },
    withdrawAll(reason) {
      const error = new DOMException(reason ?? 'The confirmation request was withdrawn', 'AbortError');
      return queue.all().filter((entry) => flow.withdraw(entry, error)).length;
    },
    subscribe: store.subscribe,
    getState: store.getState,
    getInitialState: store.getInitialState,
  };
}

/** The controller's core: its store, its queue, and the only functions that change a request. */
interface Flow extends RunHost {
  readonly store: ExternalStore<ConfirmationState>;
  readonly queue: Queue;
  /** Take in a request that passed its checks: it waits for its fingerprint (and its turn). */
  admit(entry: Entry, signal: AbortSignal | undefined): void;
  fingerprinted(entry: Entry, fingerprint: Fingerprint): void;
  withdraw(entry: Entry, reason: unknown): boolean;
  dismiss(entry: Entry): boolean;
}

function createFlow(options: ConfirmationControllerOptions): Flow {
  const store = createExternalStore(INITIAL_STATE, { onError: options.onError });
  const queue = createQueue();
  let last: ConfirmationState['last'] = null;

  const report = (error: unknown, what: string): void => reportListenerError(error, options.onError, what);
  const safely = (what: string, call: () => void): void => {
    try {
      call();
    } catch (error) {
      report(error, what);
    }
  };

  const publish = (): void => {
    const shown = queue.current();
    const waiting = queue.waiting();
    store.setState(
      Object.freeze({
        status: shown ? shown.status : 'idle',
        current: shown ? shown.view : null,
        queue: waiting.length === 0 ? EMPTY_QUEUE : Object.freeze(waiting.map((entry) => entry.view)),
        waiting: waiting.length,
        last,
      }),
      true,
    );
  };

  /** Show the next request when none is shown (DESIGN: "the dialog shows one at a time"). */
  const advance = (): void => {
    const next = queue.advance();
    if (next !== null && permits(next, 'review')) fire(next, 'review');
  };

  const leave = (entry: Entry): void => {
    queue.remove(entry);
    entry.detachSignal();
    advance();
  };

  const finish = (entry: Entry, outcome: ConfirmationOutcome): boolean => {
    if (!fire(entry, outcomeEvent(outcome.status))) return false;
    entry.outcome = Object.freeze(outcome);
    refresh(entry);
    last = Object.freeze({ requestId: entry.id, toolName: entry.toolName, outcome: entry.outcome });
    // Held on screen until dismissed, so that a person reads it (DESIGN: "end in a clear message").
    const held = actionsOf(entry).dismiss;
    if (!held) leave(entry);
    publish();
    const view = entry.view;
    const { onDeny, onResult } = entry.input;
    if (outcome.status === 'denied' && onDeny) safely('onDeny', () => onDeny(outcome.reason, view));
    if (onResult) safely('onResult', () => onResult(entry.outcome as ConfirmationOutcome, view));
    const always = options.onResult;
    if (always) safely('onResult', () => always(entry.outcome as ConfirmationOutcome, view));
    if (!held) entry.resolve(entry.outcome);
    return true;
  };

  const withdraw = (entry: Entry, reason: unknown): boolean => {
    // After approval nothing cancels an invoke in flight: `confirming` and later states have no `withdraw`.
    if (!fire(entry, 'withdraw')) return false;
    leave(entry);
    publish();
    entry.reject(reason);
    return true;
  };

  const flow: Flow = {
    store,
    queue,
    report,
    publish,
    fire,
    finish,
    withdraw,
    admit(entry, signal) {
      queue.add(entry);
      if (signal) {
        const onAbort = (): void => void withdraw(entry, signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        entry.detachSignal = () => signal.removeEventListener('abort', onAbort);
      }
      advance();
      publish();
    },
    fingerprinted(entry, fingerprint) {
      if (entry.status !== 'idle') return; // denied or withdrawn meanwhile
      entry.fingerprint = fingerprint;
      refresh(entry);
      // DESIGN: a descriptor that needs no confirmation "is invoked directly, without an id and
      // without the dialog": it never entered the queue.
      if (entry.direct) {
        startRun(flow, entry, 'invoke');
        return;
      }
      if (entry === queue.current()) fire(entry, 'review');
      publish();
    },
    dismiss(entry) {
      const outcome = entry.outcome;
      if (!actionsOf(entry).dismiss || outcome === null) return false;
      leave(entry);
      publish();
      entry.resolve(outcome);
      return true;
    },
  };
  return flow;
}

/**
 * Apply `event` through the table: the one place a request's status changes. `false`, and no
 * change, when the table does not allow it from the request's status; the guards the table
 * cannot express are asked first, through `permits` and the actions derived from it.
 */
function fire(entry: Entry, event: ConfirmationEvent): boolean {
  const next = nextConfirmationStatus(entry.status, event);
  if (next === undefined) return false;
  entry.status = next;
  if (next === 'reviewing') entry.shown = true;
  refresh(entry);
  return true;
}

/** The live requests: the one shown, those waiting behind it, and those invoked directly (never shown). */
interface Queue {
  current(): Entry | null;
  waiting(): readonly Entry[];
  all(): Entry[];
  add(entry: Entry): void;
  remove(entry: Entry): void;
  /** Make the first waiting request the shown one when none is; returns the newly shown one. */
  advance(): Entry | null;
  /** The shown request; with an id, only when it is the shown one (a late "yes" never approves the next). */
  shown(target: ConfirmationTarget | undefined): Entry | null;
  /** The shown request, or with an id any live one (deny works on a waiting request too). */
  any(target: ConfirmationTarget | undefined): Entry | null;
}

function createQueue(): Queue {
  const live = new Map<string, Entry>();
  const waiting: Entry[] = [];
  let current: Entry | null = null;
  const idOf = (target: ConfirmationTarget | undefined): string | undefined =>
    typeof target === 'object' && target !== null ? target.requestId : undefined;
  return {
    current: () => current,
    waiting: () => waiting,
    all: () => [...live.values()],
    add(entry) {
      live.set(entry.id, entry);
      if (!entry.direct) waiting.push(entry);
    },
    remove(entry) {
      live.delete(entry.id);
      const at = waiting.indexOf(entry);
      if (at >= 0) waiting.splice(at, 1);
      if (current === entry) current = null;
    },
    advance() {
      if (current !== null || waiting.length === 0) return null;
      current = waiting.shift() as Entry;
      return current;
    },
    shown(target) {
      const id = idOf(target);
      return id === undefined || current?.id === id ? current : null;
    },
    any(target) {
      const id = idOf(target);
      return id === undefined ? current : (live.get(id) ?? null);
    },
  };
}
