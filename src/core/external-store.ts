/**
 * The one external-store core of the kit: every store (the tool-call store, the app-tool host,
 * the confirmation controller, the hooks' per-host records) is a zustand vanilla store made
 * here, so that all of them share one listener policy and one error shape.
 *
 * The policy: a listener that throws never escapes the change that notified it and never keeps
 * the other listeners from hearing of it; it is reported once through `onError(reason, error,
 * 'listener-threw')`, or, when the owner gave no `onError`, through `console.error`. A store's
 * own state stays consistent whatever its listeners do.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

/**
 * Why something was reported: a short code a program can switch on. Each part of the kit adds
 * its own codes (the tool-call store's are the `ToolEventIssue`s); `listener-threw` is common
 * to every store.
 *
 * @example
 * const onError: ErrorReporter = (reason, detail, code) => { if (code !== 'repeated-seq') console.warn(reason, detail); };
 */
export type ErrorCode = string;

/**
 * The one shape of every `onError` in the kit: a sentence for people, the thing concerned (the
 * event, the chunk, the call, or the value thrown), and a code for programs.
 *
 * @example
 * const store = createToolStreamStore({ onError: ((reason, detail, code) => log.warn({ reason, code, detail })) satisfies ErrorReporter });
 */
export type ErrorReporter = (reason: string, detail: unknown, code: ErrorCode) => void;

/**
 * A store as the kit's hooks read it: zustand's vanilla store API.
 *
 * @example
 * const store: ExternalStore<{ count: number }> = createExternalStore({ count: 0 });
 * store.setState({ count: 1 });
 */
export type ExternalStore<T> = StoreApi<T>;

/** Options of {@link createExternalStore}. */
export interface ExternalStoreOptions {
  /** Told of listeners that throw (`code` is `listener-threw`); `console.error` when omitted. */
  onError?: ErrorReporter | undefined;
}

/**
 * A zustand vanilla store whose listeners cannot break it: see the policy above.
 *
 * @example
 * const store = createExternalStore({ count: 0 }, { onError: (reason) => console.warn(reason) });
 * const stop = store.subscribe((state, previous) => render(state));
 */
export function createExternalStore<T>(initial: T, options: ExternalStoreOptions = {}): ExternalStore<T> {
  return guardListeners(
    createStore<T>()(() => initial),
    options.onError,
  );
}

/**
 * Wrap a store's `subscribe` so that each listener runs under the kit's one listener policy.
 * For stores made by zustand's own `createStore` with a state creator (the tool-call store).
 *
 * @example
 * const store = guardListeners(createStore<State>()(creator), options.onError);
 */
export function guardListeners<S extends StoreApi<T>, T = ReturnType<S['getState']>>(store: S, onError: ErrorReporter | undefined): S {
  const subscribe = store.subscribe;
  store.subscribe = (listener) =>
    subscribe((state, previous) => {
      try {
        listener(state, previous);
      } catch (error) {
        reportListenerError(error, onError);
      }
    });
  return store;
}

/**
 * Report a value thrown by a listener or a callback the kit was given, under the one policy.
 * Never throws, even when the reporter or the value's own `message` getter does.
 *
 * @example
 * try { listener(); } catch (error) { reportListenerError(error, options.onError); }
 */
export function reportListenerError(error: unknown, onError: ErrorReporter | undefined, what = 'a listener'): void {
  const reason = `${what} threw: ${describeThrown(error)}`;
  try {
    if (onError) onError(reason, error, 'listener-threw');
    else console.error(reason, error);
  } catch {
    // The reporter itself threw: nothing safer is left to tell.
  }
}

/**
 * A one-line description of any thrown value that never throws itself: an Error whose `message`
 * getter throws, a Proxy whose traps throw or a value whose `toString` throws all still describe.
 *
 * @example
 * describeThrown(new Error('disk full')) // 'Error: disk full'
 */
export function describeThrown(value: unknown): string {
  try {
    if (value instanceof Error) {
      const name = safeString(() => value.name) ?? 'Error';
      const message = safeString(() => value.message);
      return message ? `${name}: ${message}` : name;
    }
    if (typeof value === 'string') return value;
    return safeString(() => String(value)) ?? 'a value that cannot be described';
  } catch {
    return 'a value that cannot be described';
  }
}

function safeString(read: () => unknown): string | undefined {
  try {
    const v = read();
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}
