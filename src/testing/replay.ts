/**
 * Replay lists of events into a store (or a scripted session) at a chosen speed: instant in
 * tests, paced in stories for people watching. Pauses move an injected clock at any speed, so
 * the durations a store stamps are the script's, not the machine's.
 *
 * @example
 * const clock = createManualClock({ start: Date.now() });
 * const store = createToolStreamStore({ now: clock.now });
 * await replayEvents(store, [...callEvents('c1', { arguments: { q: 'cats' } }), pause(800), toolEvents.closed()], { clock });
 */
import type { LocalToolEvent } from '../core/stream/local-events';
import { isToolgateRecording, type ToolgateRecording } from './recording';
import type { ScriptStep } from './scripted-session';
import { toolEvents } from './tool-events';

/**
 * A pause between events (see {@link pause}).
 *
 * @example
 * const items = [e.start('c1'), new ReplayPause(500), e.settled('c1')]; // same as pause(500)
 */
export class ReplayPause {
  constructor(readonly ms: number) {}
}

/**
 * Wait `ms` (at speed 1) between the events around it.
 *
 * @example
 * await replayEvents(store, [e.start('c1'), pause(300), e.delta('c1', '{}')], { speed: 1 });
 */
export const pause = (ms: number): ReplayPause => new ReplayPause(ms);

/** A pause as a recording writes it (`{ type: 'toolgate.pause', ms }`), or `pause(ms)`: its duration. */
function pauseOf(item: unknown): number | undefined {
  if (item instanceof ReplayPause) return item.ms;
  if (typeof item !== 'object' || item === null) return undefined;
  const { type, ms } = item as { type?: unknown; ms?: unknown };
  return type === 'toolgate.pause' && typeof ms === 'number' && ms >= 0 ? ms : undefined;
}

/** One of the page's own events as a recording writes it (`{ type: 'toolgate.page', event }`). */
function pageEventOf(item: unknown): LocalToolEvent | undefined {
  if (typeof item !== 'object' || item === null || (item as { type?: unknown }).type !== 'toolgate.page') return undefined;
  const event = (item as { event?: unknown }).event;
  return typeof event === 'object' && event !== null ? (event as LocalToolEvent) : undefined;
}

/**
 * What events are replayed into: a store (`getState().dispatch`) or anything with `dispatch`/`emit`.
 *
 * @example
 * const target: ReplayTarget = createToolStreamStore(); // or a scripted session (emit), or { dispatch }
 * await replayEvents(target, callEvents('c1', { arguments: { q: 'cats' } }));
 */
export type ReplayTarget =
  | {
      getState(): {
        dispatch(event: unknown): void;
        interrupt?(turnId?: string): void;
        markApproval?(callId: string, mark: Extract<LocalToolEvent, { type: 'approval' }>['mark']): void;
      };
    }
  | { dispatch(event: unknown): void }
  | { emit(event: unknown): void };

/**
 * Options of {@link replayEvents}.
 *
 * @example
 * await replayEvents(store, events, { speed: 2 } satisfies ReplayOptions);
 */
export interface ReplayOptions {
  /** 1 is real time, 2 twice as fast. Default `Infinity`: instant. */
  speed?: number;
  /** Moved forward by every pause, at any speed: the clock the store stamps calls with. */
  clock?: { advance(ms: number): unknown };
  /** Stop replaying (quietly) when aborted. */
  signal?: AbortSignal;
  /** Let the page breathe (one macrotask) after this many events in a row, even when instant. Default 500. */
  batch?: number;
  /** Timers for the waits. Default the global ones. */
  setTimeout?: (callback: () => void, ms: number) => unknown;
}

const sleep = (ms: number, options: ReplayOptions) =>
  new Promise<void>((resolve) => {
    if (options.signal?.aborted) return resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
    (options.setTimeout ?? globalThis.setTimeout)(resolve, ms);
  });

/**
 * Dispatch `items` (events and {@link pause}s) in order, or a recording's `events` (a
 * {@link ToolgateRecording} from `toolgate/devtools`, whose pauses are JSON and whose page events
 * go through a store's own `interrupt` and `markApproval`; other targets skip them, as only the
 * page makes them). Starts after the caller's setup (a StrictMode cleanup can abort before
 * anything is sent). Resolves with how many events were sent.
 *
 * @example
 * await replayEvents(store, interleave(callEvents('a', { arguments: x }), callEvents('b', { arguments: y })), { speed: 2 });
 * await replayEvents(store, recording, { clock: createManualClock({ start: recording.startedAt }) });
 */
export async function replayEvents(target: ReplayTarget, source: Iterable<unknown> | ToolgateRecording, options: ReplayOptions = {}): Promise<number> {
  const { speed = Infinity, batch = 500, clock, signal } = options;
  if (!(speed > 0)) throw new RangeError(`speed must be a positive number (Infinity for instant), not ${String(speed)}`);
  const items: Iterable<unknown> = isToolgateRecording(source) ? source.events : (source as Iterable<unknown>);
  if (typeof (items as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function') {
    throw new TypeError('replayEvents takes a list of events or a toolgate recording (format "toolgate.recording", version 1)');
  }
  const send = (event: unknown) => {
    const page = pageEventOf(event);
    if (page !== undefined) {
      if (!('getState' in target)) return;
      const store = target.getState();
      if (page.type === 'interrupt') store.interrupt?.(page.turnId);
      else if (page.type === 'approval') store.markApproval?.(page.callId, page.mark);
      return;
    }
    if ('getState' in target) target.getState().dispatch(event);
    else if ('dispatch' in target) target.dispatch(event);
    else target.emit(event);
  };
  let sent = 0;
  let run = 0;
  await sleep(0, options);
  for (const item of items) {
    if (signal?.aborted) break;
    const pauseMs = pauseOf(item);
    if (pauseMs !== undefined) {
      await clock?.advance(pauseMs);
      const ms = pauseMs / speed;
      run = 0;
      await sleep(ms > 0 && Number.isFinite(ms) ? ms : 0, options);
      continue;
    }
    send(item);
    sent++;
    if (++run >= batch) {
      run = 0;
      await sleep(0, options);
    }
  }
  return sent;
}

/**
 * The same items as steps of a scripted session: events become `emit`, pauses `delay`.
 *
 * @example
 * const session = createScriptedSession({ script: eventScript([...callEvents('c1', { arguments: {} }), pause(200)]) });
 * await session.play();
 */
export function eventScript(items: Iterable<unknown>): ScriptStep[] {
  return Array.from(items, (item): ScriptStep => {
    const ms = pauseOf(item);
    return ms === undefined ? { kind: 'emit', event: item } : { kind: 'delay', ms };
  });
}

/**
 * Merge lists round-robin (one item from each in turn), so several calls stream side by side.
 *
 * @example
 * [...interleave([1, 2, 3], ['a', 'b'])] // [1, 'a', 2, 'b', 3]
 */
export function* interleave<T>(...lists: Iterable<T>[]): Generator<T> {
  const iterators = lists.map((list) => list[Symbol.iterator]());
  while (iterators.length > 0) {
    for (let i = 0; i < iterators.length; ) {
      const next = (iterators[i] as Iterator<T>).next();
      if (next.done) iterators.splice(i, 1);
      else {
        yield next.value;
        i++;
      }
    }
  }
}

/**
 * The argument text of a call as `arguments-delta` events of `chunk` characters, generated
 * lazily (a 1 MB text in 4-character fragments is 262,144 events, never held at once).
 *
 * @example
 * for (const event of argumentDeltas('c1', JSON.stringify(bigArguments), 16)) store.getState().dispatch(event);
 */
export function* argumentDeltas(callId: string, text: string, chunk = 4): Generator<ReturnType<typeof toolEvents.delta>> {
  const size = Math.max(1, chunk);
  for (let i = 0; i < text.length; i += size) yield toolEvents.delta(callId, text.slice(i, i + size));
}

/**
 * Resolves once `predicate` holds for the store's state (checked now and on every change);
 * wait on state, never on time.
 *
 * @example
 * await waitForState(store, (s) => s.calls['c1']?.status === 'settled');
 */
export function waitForState<S>(
  store: { getState(): S; subscribe(listener: (state: S) => void): () => void },
  predicate: (state: S) => boolean,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (!predicate(state)) return;
      stop();
      resolve();
    });
    options.signal?.addEventListener('abort', () => (stop(), reject(options.signal?.reason)), { once: true });
  });
}
