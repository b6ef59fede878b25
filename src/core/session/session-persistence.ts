/**
 * A session kept across a page reload (docs/protocol.md, "Sessions that survive a
 * reload"): what it takes to resume it (`{ sessionId, token, lastSeq }`), its standing grants,
 * and the app-tool calls the page ran, in a storage the application chooses (sessionStorage by
 * default). Opt-in: nothing is kept unless the application asks.
 *
 * The one rule for a storage that fails (throws, is full, is switched off): the session goes on,
 * `onError` says so once, and the saved entry is removed and nothing more is saved. A page that
 * reloads then starts a new session instead of resuming one without knowing which app-tool calls
 * ran: never twice comes before resuming.
 *
 * Two keys: `key` holds the resume triple, the page's nonce and the grants (small, rewritten as
 * events arrive, at most once a second), `key + ':calls'` the calls the page ran (rewritten when a
 * run begins or ends).
 *
 * One page holds a saved session (docs/guarantees.md "One page holds a saved session"): the page
 * that writes the entry holds a Web Lock named after its nonce for as long as it lives. A page
 * that finds the entry takes that lock before it resumes: after a reload the page before it is
 * gone and the lock comes free; a duplicated tab (whose sessionStorage is a copy) finds it held,
 * and starts a session of its own with a nonce of its own.
 */

import type { ErrorReporter } from '../external-store';
import type { SavedCall, SavedCalls } from '../app-tools/answer-ledger';
import type { ToolGrants } from '../approval/tool-grants';
import { TOOL_RESULT_CODES, type ToolResult, type ToolResultCode } from '../wire';

/**
 * The part of the Web Storage API a saved session uses: `sessionStorage` and `localStorage`
 * fit, and so does a small object of the application's own.
 *
 * @example
 * const memory = new Map<string, string>();
 * const storage: StorageLike = {
 *   getItem: (key) => memory.get(key) ?? null,
 *   setItem: (key, value) => void memory.set(key, value),
 *   removeItem: (key) => void memory.delete(key),
 * };
 */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * What resumes a session: its id, its resume token (a secret) and the `seq` of the last event
 * the page had.
 *
 * @example
 * const resume: SavedResume = { sessionId: 'sess_1', token: '…', lastSeq: 42 };
 */
export interface SavedResume {
  readonly sessionId: string;
  readonly token: string;
  readonly lastSeq: number;
}

/**
 * Options of {@link createSessionPersistence}.
 *
 * @example
 * createSessionPersistence({ storage: localStorage, key: 'my-app:session', onError: console.warn } satisfies SessionPersistenceOptions);
 */
export interface SessionPersistenceOptions {
  /** Where to keep it. Default `globalThis.sessionStorage` (none in Node: nothing is kept then, and `onError` says so). */
  storage?: StorageLike;
  /** The storage key (the calls go under `key + ':calls'`). Default `'toolgate:session'`. */
  key?: string;
  /** How many of the latest calls the page ran are kept. Default 32 (app tools run one at a time). */
  keepCalls?: number;
  /** A result kept with its call only when its JSON is at most this long; larger ones keep only that the call was answered. Default 4096. */
  maxResultChars?: number;
  /** Told once when the storage fails (`storage-failed`), and of a saved entry that could not be read (`invalid-saved-session`). */
  onError?: ErrorReporter;
  /** How long a page that found a saved entry waits for the page before it to let go of it (a reload), in ms. Default 1000. */
  claimWaitMs?: number;
}

/**
 * A session kept in storage across a reload. See {@link createSessionPersistence}.
 *
 * @example
 * const persistence: SessionPersistence = createSessionPersistence();
 * const host = createAppToolHost({ savedCalls: persistence.calls });
 */
export interface SessionPersistence {
  readonly key: string;
  /** What a page before this one kept: its resume triple, if any (read once, when created). */
  readonly restored: SavedResume | undefined;
  /** The grants a page before this one kept, as saved (give them to `createToolGrants({ saved })`, which checks them); `undefined` once this page started over. */
  readonly restoredGrants: unknown;
  /** This page's nonce: kept with the entry, sent in `hello.page`, and the name of the lock the page holds. */
  readonly page: string;
  /**
   * Whether this page holds the saved session: `true`, `false` (another live page holds it: this
   * page is a copy and must start over), or `undefined` until {@link SessionPersistence.claim} knows.
   */
  readonly held: boolean | undefined;
  /**
   * Take the entry's lock for this page (once; later calls give the same promise): true when this
   * page holds it (or the browser has no Web Locks, so nothing can tell), false when another live
   * page holds it past `claimWaitMs`.
   */
  claim(): Promise<boolean>;
  /** Another page holds the saved session: forget it (its calls and grants) and keep this page's own under a new nonce. */
  startOver(): void;
  /** Whether it still saves: false after `clear()` or once the storage failed. */
  readonly active: boolean;
  /** Keep the resume triple: a new session or token at once, a new `lastSeq` at most once a second (and when the page hides). */
  saveResume(resume: SavedResume): void;
  /** Keep the standing grants (what `grants.save()` gives). */
  saveGrants(snapshot: unknown): void;
  /** The calls the page ran, for `createAppToolHost({ savedCalls })`. */
  readonly calls: SavedCalls;
  /** Write what waits (a newer `lastSeq`) now. */
  flush(): void;
  /** The session ended for good: remove what was kept and save nothing more. */
  clear(): void;
}

const DEFAULT_KEY = 'toolgate:session';
const RESUME_DELAY_MS = 1_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (record: Record<string, unknown>, key: string): unknown => (Object.hasOwn(record, key) ? record[key] : undefined);

/**
 * Keep a session in storage so that a page can resume it after a reload:
 * `connectReferenceSession(url, { persist: true })` makes one, and `<ToolgateProvider>` wires its
 * calls to the app-tool host and its grants to the confirmation controller.
 *
 * @example
 * const persistence = createSessionPersistence({ storage: sessionStorage, onError: (reason) => console.warn(reason) });
 * if (persistence.restored) resumeFrom(persistence.restored);
 * persistence.saveResume({ sessionId: 'sess_1', token, lastSeq: 0 });
 */
export function createSessionPersistence(options: SessionPersistenceOptions = {}): SessionPersistence {
  const key = options.key ?? DEFAULT_KEY;
  const callsKey = `${key}:calls`;
  const keepCalls = Math.max(1, options.keepCalls ?? 32);
  const maxResultChars = options.maxResultChars ?? 4096;
  const tell = (reason: string, detail: unknown, code: string): void => {
    try {
      options.onError?.(reason, detail, code);
    } catch {
      // The reporter threw: the session goes on all the same.
    }
  };

  let storage: StorageLike | undefined = options.storage ?? defaultStorage();
  let active = storage !== undefined;
  let resume: SavedResume | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written: SavedResume | undefined;
  /** The entry names this page's session: read from it (restored) or written by this page. */
  let holdsEntry = false;
  /**
   * The storage failed and the entry naming this page's session could not be removed: a reload
   * may still resume it, so a run whose start is not kept could run again (see `calls.started`).
   */
  let stale = false;
  if (!active) tell('no storage to keep the session in (sessionStorage is not available): a reload will start a new session', undefined, 'storage-failed');

  /** The storage failed: remove what is kept (a reload must not resume without it) and stop. */
  const fail = (what: string, error: unknown): void => {
    if (!active) return;
    active = false;
    clearTimeout(timer);
    timer = undefined;
    // Each key on its own: the calls kept matter only beside the resume triple.
    const removed = remove(key);
    remove(callsKey);
    stale = holdsEntry && !removed;
    storage = undefined;
    tell(
      `the session could not be kept in storage (${what}: ${describeError(error)}): it is no longer kept, and a reload will start a new session`,
      error,
      'storage-failed',
    );
  };
  const remove = (name: string): boolean => {
    try {
      storage?.removeItem(name);
      return true;
    } catch {
      return false;
    }
  };
  /** Whether `value` is now kept under `name`. */
  const write = (name: string, value: string): boolean => {
    if (!active || storage === undefined) return false;
    try {
      storage.setItem(name, value);
      return true;
    } catch (error) {
      fail(`saving ${name}`, error);
      return false;
    }
  };
  const read = (name: string): unknown => {
    if (storage === undefined) return undefined;
    let text: string | null;
    try {
      text = storage.getItem(name);
    } catch (error) {
      fail(`reading ${name}`, error);
      return undefined;
    }
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      tell(`the saved session under ${name} is not JSON: it is ignored`, text, 'invalid-saved-session');
      return undefined;
    }
  };

  const main = read(key);
  const restored = readResume(main, (reason) => tell(`the saved session under ${key} ${reason}: it is ignored`, main, 'invalid-saved-session'));
  if (restored !== undefined) holdsEntry = true;
  const restoredGrants = restored !== undefined && isRecord(main) ? own(main, 'grants') : undefined;
  // Calls belong to the session they were saved with: without a session to resume they are stale.
  const calls = restored !== undefined ? readCalls(read(callsKey), keepCalls) : new Map<string, SavedCall>();

  let grants: unknown = restoredGrants;
  let givenGrants: unknown = restoredGrants;
  const savedPage = restored !== undefined && isRecord(main) ? own(main, 'page') : undefined;
  let page = typeof savedPage === 'string' && savedPage !== '' && savedPage.length <= 128 ? savedPage : newPageNonce();
  let held: boolean | undefined;
  let claiming: Promise<boolean> | undefined;
  // The page before this one in the tab said it went away (pagehide, see below): a reload, not a
  // copy of a live tab. Its lock may outlive it a moment, so this page does not wait for it.
  const releasedKey = `${key}:released`;
  let released = false;
  if (restored !== undefined && storage !== undefined) {
    try {
      released = storage.getItem(releasedKey) === page;
      storage.removeItem(releasedKey);
    } catch {
      // Unknown: the lock decides.
    }
  }
  const claim = (): Promise<boolean> => {
    if (claiming) return claiming;
    const mine = page;
    const waitFor = released ? Infinity : restored !== undefined && held === undefined ? (options.claimWaitMs ?? 1_000) : Infinity;
    const attempt = claimPage(`${key}#${mine}`, waitFor);
    if (released && attempt !== true) {
      held = true;
      claiming = Promise.resolve(true);
      return claiming;
    }
    if (attempt === true) {
      held = true;
      claiming = Promise.resolve(true);
    } else {
      claiming = attempt.then((result) => {
        if (page === mine) held = result;
        return result;
      });
    }
    return claiming;
  };
  // A page with nothing to resume holds its own nonce's lock from the start; one with a saved entry
  // asks for it at once, so a reload finds out as early as it can.
  if (active) claim();

  const writeMain = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (resume === undefined) return;
    written = resume;
    holdsEntry = true;
    write(key, JSON.stringify({ version: 1, page, resume, ...(grants === undefined ? {} : { grants }) }));
  };
  const writeCalls = (): void => {
    write(callsKey, JSON.stringify({ version: 1, calls: [...calls].map(([callId, call]) => [callId, call]) }));
  };
  const remember = (callId: string, call: SavedCall): void => {
    calls.delete(callId);
    calls.set(callId, call);
    while (calls.size > keepCalls) calls.delete(calls.keys().next().value as string);
    writeCalls();
  };
  const stopWatchingPage = active
    ? onPageHide(() => {
        persistence.flush();
        // Tells the next page of this tab (a reload) that this one is gone; a copy of the tab made
        // while this page lives never carries it.
        if (!active || storage === undefined || resume === undefined) return;
        try {
          storage.setItem(releasedKey, page);
        } catch {
          // The next page waits for the lock instead.
        }
      })
    : () => {};

  const persistence: SessionPersistence = {
    key,
    restored,
    get restoredGrants() {
      return givenGrants;
    },
    get page() {
      return page;
    },
    get held() {
      return held;
    },
    claim,
    startOver() {
      // The calls and grants belong to the session the other page holds: none of them is this page's.
      calls.clear();
      grants = undefined;
      givenGrants = undefined;
      resume = undefined;
      written = undefined;
      page = newPageNonce();
      held = undefined;
      claiming = undefined;
      if (active) claim();
    },
    get active() {
      return active;
    },
    saveResume(next) {
      if (!active) return;
      resume = Object.freeze({ sessionId: next.sessionId, token: next.token, lastSeq: next.lastSeq });
      // A new session or token must be kept before anything else happens; a newer lastSeq can wait.
      if (written === undefined || written.sessionId !== next.sessionId || written.token !== next.token) writeMain();
      else timer ??= setTimeout(writeMain, RESUME_DELAY_MS);
    },
    saveGrants(snapshot) {
      if (!active) return;
      grants = snapshot;
      writeMain();
    },
    calls: {
      recall: (callId) => calls.get(callId),
      started: (callId) => {
        if (active) remember(callId, Object.freeze({ state: 'running' }));
        // docs/guarantees.md "Sessions that survive a reload": nothing runs unless its start is
        // kept, or no kept entry names this session any more. Throwing here makes the host
        // answer FAILED without running.
        if (stale) {
          throw new Error(
            `the start of ${callId} could not be kept, and the saved session could not be removed from storage: a reload could resume the session without knowing that ${callId} started`,
          );
        }
      },
      answered: (callId, result) => {
        if (!active) return;
        const text = JSON.stringify(result);
        remember(callId, Object.freeze(text.length <= maxResultChars ? { state: 'answered', result } : { state: 'answered' }));
      },
    },
    flush() {
      if (timer !== undefined) writeMain();
    },
    clear() {
      clearTimeout(timer);
      timer = undefined;
      resume = undefined;
      calls.clear();
      stopWatchingPage();
      if (!active) return;
      active = false;
      try {
        storage?.removeItem(key);
        storage?.removeItem(callsKey);
      } catch (error) {
        tell(`the saved session could not be removed from storage: ${describeError(error)}`, error, 'storage-failed');
      }
    },
  };
  return persistence;
}

/** The kept sessions whose grants were given back already: a page restores them once, however often it wires. */
const grantsRestored = new WeakSet<SessionPersistence>();

/**
 * Give the standing grants a page before this one kept back to `grants` (once per kept session:
 * `grants.restore` checks each entry and reports what it refuses), then keep each change beside the
 * resume triple. Returns the function that stops keeping them. The provider calls it before the
 * restored session connects, so a request the server sends again after the reload meets the grants
 * the person gave before it.
 */
export function keepGrants(persistence: SessionPersistence, grants: ToolGrants): () => void {
  if (!grantsRestored.has(persistence)) {
    grantsRestored.add(persistence);
    const saved = persistence.restoredGrants;
    // Only the page that holds the saved session gets its grants back: a copy of the tab starts a
    // session of its own, without them. Registered before the session waits on the same claim, so
    // the grants are back before it connects.
    if (saved !== undefined) {
      if (persistence.held === true) grants.restore(saved);
      else void persistence.claim().then((held) => held && grants.restore(saved));
    }
  }
  return grants.subscribe(() => persistence.saveGrants(grants.save()));
}

/** A fresh nonce for this page: 128 random bits, base64url. */
function newPageNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<void>;
}

/**
 * Hold the Web Lock `name` for the rest of the page's life. `true` at once where there are no Web
 * Locks (nothing can tell two pages apart then: the server's rule is what is left); else whether
 * it was granted within `waitMs`.
 */
function claimPage(name: string, waitMs: number): true | Promise<boolean> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (locks === undefined || typeof locks.request !== 'function') return true;
  return new Promise<boolean>((resolve) => {
    const controller = new AbortController();
    const timer = Number.isFinite(waitMs) ? setTimeout(() => controller.abort(), waitMs) : undefined;
    locks
      .request(name, { signal: controller.signal }, () => {
        clearTimeout(timer);
        resolve(true);
        // Held until the page goes away: the browser lets go of a closed page's locks.
        return new Promise<void>(() => {});
      })
      .catch((error: unknown) => {
        clearTimeout(timer);
        // Aborted: another page held it all along. Any other failure tells nothing about other pages.
        resolve(!(error instanceof Error && error.name === 'AbortError') && !(typeof DOMException === 'function' && error instanceof DOMException && error.name === 'AbortError'));
      });
  });
}

function defaultStorage(): StorageLike | undefined {
  try {
    // Reading `sessionStorage` itself throws where storage is switched off.
    return (globalThis as { sessionStorage?: StorageLike }).sessionStorage;
  } catch {
    return undefined;
  }
}

/** Write what waits when the page goes away (`pagehide` fires on a reload and on leaving). Returns the unsubscribe. */
function onPageHide(flush: () => void): () => void {
  const target = globalThis as {
    addEventListener?: (type: string, listener: () => void) => void;
    removeEventListener?: (type: string, listener: () => void) => void;
    document?: unknown;
  };
  if (typeof target.addEventListener !== 'function' || target.document === undefined) return () => {};
  target.addEventListener('pagehide', flush);
  return () => target.removeEventListener?.('pagehide', flush);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** The resume triple of a saved entry, field by field (a fresh object: nothing else of the entry comes along). */
function readResume(saved: unknown, refuse: (reason: string) => void): SavedResume | undefined {
  if (saved === undefined) return undefined;
  if (!isRecord(saved) || own(saved, 'version') !== 1) return void refuse('is not a saved session (version 1)');
  const resume = own(saved, 'resume');
  if (!isRecord(resume)) return void refuse('has no resume triple');
  const sessionId = own(resume, 'sessionId');
  const token = own(resume, 'token');
  const lastSeq = own(resume, 'lastSeq');
  if (typeof sessionId !== 'string' || sessionId === '') return void refuse('names no session');
  if (typeof token !== 'string' || token === '') return void refuse('has no resume token');
  if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0) return void refuse('has no lastSeq');
  return Object.freeze({ sessionId, token, lastSeq });
}

/** The saved calls, each checked; what is not well formed is left out. */
function readCalls(saved: unknown, keep: number): Map<string, SavedCall> {
  const calls = new Map<string, SavedCall>();
  if (!isRecord(saved) || own(saved, 'version') !== 1) return calls;
  const list = own(saved, 'calls');
  if (!Array.isArray(list)) return calls;
  for (const entry of list.slice(-keep)) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || entry[0] === '' || !isRecord(entry[1])) continue;
    const state = own(entry[1], 'state');
    if (state === 'running') calls.set(entry[0], Object.freeze({ state: 'running' }));
    else if (state === 'answered') {
      const result = readResult(own(entry[1], 'result'));
      calls.set(entry[0], Object.freeze(result === undefined ? { state: 'answered' } : { state: 'answered', result }));
    }
  }
  return calls;
}

/** A saved result, if it is one: `{ ok: true, output }` or `{ ok: false, code, message? }` with a known code. */
function readResult(value: unknown): ToolResult | undefined {
  if (!isRecord(value)) return undefined;
  const ok = own(value, 'ok');
  if (ok === true) return Object.freeze({ ok: true as const, output: deepFreeze(own(value, 'output') ?? null) as never });
  const code = own(value, 'code');
  if (ok !== false || typeof code !== 'string' || !(TOOL_RESULT_CODES as readonly string[]).includes(code)) return undefined;
  const message = own(value, 'message');
  return Object.freeze({ ok: false as const, code: code as ToolResultCode, ...(typeof message === 'string' ? { message } : {}) });
}

/** JSON.parse's output, frozen (its `__proto__` keys are own data keys already). */
function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
