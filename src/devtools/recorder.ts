/**
 * The devtools' recorder: everything a client's `onEvent` tells, kept in order with what a view
 * needs to filter and step through it (the call, its turn, its state after each event). No React.
 *
 * It is cheap on purpose, since it runs beside a live session (the bench measures it): entries go
 * into one append-only array (no copy per event), and listeners hear of new entries at most once
 * per animation frame, so a burst of fragments costs the panel one render.
 */
import type { ToolCall, ToolgateClient, ToolgateEvent, ToolStreamState } from '../core';
import type { ToolEventVerdict } from '../core/stream/reducer';
import { callOf, recordOf } from '../core/stream/call-table';
import { stepLocalToolEvent, stepToolEvent } from '../core/stream/reducer';
import type { LocalToolEvent } from '../core/stream/local-events';

/**
 * Where a recorded entry came from: the session's event (`session`), the page's own event
 * (`page`: a local interrupt, an approval mark), an app-tool call the session asked for
 * (`tool-call`), a message the page sent (`answer`), or an error the client reported (`error`).
 *
 * @example
 * const shown: DevtoolsSource[] = ['session', 'page'];
 */
export type DevtoolsSource = ToolgateEvent['source'];

/**
 * One recorded entry, with what the views read of it.
 *
 * @example
 * const refused = entries.filter((entry: DevtoolsEntry) => entry.verdict?.outcome === 'rejected');
 */
export interface DevtoolsEntry {
  /** Its place in the recording, from 0. */
  readonly index: number;
  readonly source: DevtoolsSource;
  /** The store's clock when it happened. */
  readonly at: number;
  /** A short name: `tool.stream/start`, `page/interrupt`, `answer/tool.result`, `error/session-binding`. */
  readonly type: string;
  /** The event or message itself, as it came. */
  readonly payload: unknown;
  /** The call it concerns, when it names one (an approval answer is traced to its call). */
  readonly callId: string | undefined;
  /** That call's turn, when known. */
  readonly turnId: string | undefined;
  /** The reducer's verdict (`session` and `page` entries). */
  readonly verdict: ToolEventVerdict | undefined;
  /** Why it was refused or what went wrong: a rejected event's or an error's reason. */
  readonly reason: string | undefined;
  /** The refusal's or error's code. */
  readonly code: string | undefined;
  /** The call's state right after this entry (`session` and `page` entries that name a call). */
  readonly call: ToolCall | undefined;
  /**
   * The store's whole state right after (`session` and `page` entries). Equal to the store's, and
   * possibly not the same object: most entries make it again from a kept one when read.
   */
  readonly state: ToolStreamState | undefined;
}

/**
 * What a recorder holds now. `entries` is append-only: read it up to `length` (a later entry may
 * already be there before listeners hear of it).
 *
 * @example
 * const { entries, length, full }: DevtoolsRecorderState = recorder.getState();
 */
export interface DevtoolsRecorderState {
  readonly entries: readonly DevtoolsEntry[];
  readonly length: number;
  /** The recorder reached its `limit` and keeps nothing more. */
  readonly full: boolean;
  /** The calls, types and turns seen so far (for the filters), kept as entries arrive. */
  readonly choices: { readonly callIds: readonly string[]; readonly types: readonly string[]; readonly turnIds: readonly string[] };
  /** Each call's entries in order (append-only, like `entries`). */
  readonly byCall: ReadonlyMap<string, readonly DevtoolsEntry[]>;
}

/**
 * Options of {@link createDevtoolsRecorder}.
 *
 * @example
 * const recorder = createDevtoolsRecorder(client, { limit: 50_000 });
 */
export interface DevtoolsRecorderOptions {
  /** Keep at most this many entries (default 20,000); past it the recorder stops and says so (`full`). */
  limit?: number;
  /** How listeners' notifications are batched (default: once per animation frame, else a 16 ms timer). */
  scheduleFrame?: (flush: () => void) => void;
}

/**
 * A recorder attached to one client: a store of entries a view subscribes to.
 *
 * @example
 * const recorder = createDevtoolsRecorder(client);
 * recorder.subscribe(() => console.log(recorder.getState().length, 'entries'));
 * recorder.stop();
 */
export interface DevtoolsRecorder {
  getState(): DevtoolsRecorderState;
  subscribe(listener: () => void): () => void;
  /** Bring `getState()` up to date now (listeners hear of it) instead of at the next frame. */
  flush(): void;
  /** Forget every entry (a new recording starts). */
  clear(): void;
  /** Stop listening to the client (the entries stay). */
  stop(): void;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    // A hostile frame's getter: it names nothing.
    return undefined;
  }
}

// Each `type/phase` name made once: a stream of fragments would otherwise hold one string per entry.
const joinedNames = new Map<string, Map<string, string>>();
function joined(type: string, phase: string): string {
  const phases = joinedNames.get(type);
  const name = phases?.get(phase);
  if (name !== undefined) return name;
  const made = `${type}/${phase}`;
  // Bounded: names a session made up do not pile up across recordings.
  if (phases !== undefined) {
    if (phases.size < 64) phases.set(phase, made);
  } else if (joinedNames.size < 64) joinedNames.set(type, new Map([[phase, made]]));
  return made;
}

function typeOf(entry: ToolgateEvent): string {
  switch (entry.source) {
    case 'session': {
      const type = textOf(field(entry.event, 'type')) ?? '(no type)';
      const phase = textOf(field(entry.event, 'phase'));
      return phase === undefined ? type : joined(type, phase);
    }
    case 'page':
      return `page/${textOf(field(entry.event, 'type')) ?? '?'}`;
    case 'tool-call':
      return 'tool.call';
    case 'answer':
      return `answer/${entry.message.type}`;
    case 'error':
      return `error/${entry.code}`;
  }
}

/**
 * One state in this many of a recording is kept whole; the others are made again from it on read.
 * A kept state holds every call record made since the one before (up to one per event: 50 calls
 * streaming at once touch a different call with nearly every fragment), so at 32 the checkpoints
 * held more than the entries themselves (about 400 bytes an event, the garbage collector's largest
 * work in the bench's devtools section); at 256 they hold about 80. A read makes its state again
 * over at most 255 events, which a view does for the one entry it shows.
 */
const CHECKPOINT_EVERY = 256;

/** What the entries of one recording share: the list (to make a state again) and the first time. */
interface Recording {
  readonly entries: readonly RecordedEntry[];
  /** Entries keep their time from this one: a small whole number is stored inline, a clock's value is not. */
  base: number | undefined;
}

/** An error entry's reason and code. */
interface ErrorOutcome {
  readonly reason: string;
  readonly code: string;
}

/** A call not read yet (`undefined` is an answer: the entry names no call, or no such call). */
const UNREAD = Symbol('unread');

/**
 * An entry as the recorder keeps it: the event as it came, its place, its short name, its call.
 * What a view shows is read from these when asked, not copied per event, and the store's state is
 * kept only at checkpoints: the recorder runs beside a live session, and holding a copy of the
 * call (its text, its preview) and the whole state for every fragment cost more than the session
 * itself. Nor does an entry keep the reducer's record of its call: a session streaming 50 calls
 * made one per fragment, and keeping them all (for views that read a few) made the garbage
 * collector's work the panel's largest cost (the bench's devtools section). The state between
 * checkpoints, and the call in it, is the reducer run again from the last checkpoint over the
 * events since, with their clock (the reducer is pure: docs/architecture.md), made when a view
 * reads the entry and the call then kept on it.
 */
class RecordedEntry implements DevtoolsEntry {
  #call: ToolCall | undefined | typeof UNREAD = UNREAD;

  constructor(
    readonly index: number,
    readonly source: DevtoolsSource,
    /** The store's clock when it happened, less the recording's `base`. */
    private readonly since: number,
    /** The event (`session`, `page`), the message (`tool-call`, `answer`) or the error's detail. */
    readonly payload: unknown,
    /** The reducer's verdict (`session` and `page` entries), or the error's reason and code (`error`). */
    private readonly outcome: ToolEventVerdict | ErrorOutcome | undefined,
    readonly type: string,
    readonly callId: string | undefined,
    readonly turnId: string | undefined,
    /** This entry's state when it is a checkpoint. */
    private readonly kept: ToolStreamState | undefined,
    /** The recording it belongs to, to make its state again from the last checkpoint. */
    private readonly recording: Recording,
  ) {}

  get at(): number {
    return (this.recording.base ?? 0) + this.since;
  }

  get verdict(): ToolEventVerdict | undefined {
    return this.source === 'session' || this.source === 'page' ? (this.outcome as ToolEventVerdict) : undefined;
  }

  private get error(): ErrorOutcome | undefined {
    return this.source === 'error' ? (this.outcome as ErrorOutcome) : undefined;
  }

  get reason(): string | undefined {
    if (this.error !== undefined) return this.error.reason;
    const verdict = this.verdict;
    if (verdict === undefined) return undefined;
    return verdict.outcome === 'applied' ? verdict.warning : verdict.reason;
  }

  get code(): string | undefined {
    if (this.error !== undefined) return this.error.code;
    const verdict = this.verdict;
    if (verdict === undefined) return undefined;
    return verdict.outcome === 'rejected' ? verdict.issue : verdict.outcome === 'applied' && verdict.warning !== undefined ? verdict.warningCode : undefined;
  }

  get call(): ToolCall | undefined {
    // Made once, on first read: the same call each time it is read (a view compares them).
    if (this.#call !== UNREAD) return this.#call;
    const state = this.callId === undefined ? undefined : this.state;
    const call = state === undefined || this.callId === undefined ? undefined : callOf(state, this.callId);
    this.#call = call;
    return call;
  }

  get state(): ToolStreamState | undefined {
    if (this.kept !== undefined) return this.kept;
    if (this.verdict === undefined) return undefined;
    const entries = this.recording.entries;
    let from = this.index;
    while (from >= 0 && entries[from]?.kept === undefined) from--;
    let state = entries[from]?.kept;
    if (state === undefined) return undefined;
    for (let i = from + 1; i <= this.index; i++) {
      const step = entries[i];
      if (step === undefined) continue;
      if (step.source === 'session') state = stepToolEvent(state, step.payload, { now: step.at }).state;
      else if (step.source === 'page') state = stepLocalToolEvent(state, step.payload as LocalToolEvent, { now: step.at }).state;
    }
    return state;
  }
}

const payloadOf = (event: ToolgateEvent): unknown => {
  switch (event.source) {
    case 'session':
    case 'page':
      return event.event;
    case 'tool-call':
    case 'answer':
      return event.message;
    case 'error':
      return event.detail;
  }
};

/**
 * Record what passes through `client` from now on: every event the store takes (with the
 * reducer's verdict and the call's state after it), refused frames with their reasons, app-tool
 * calls, the page's answers and reported errors. `<ToolgateDevtools>` makes one while it is
 * mounted; make one yourself, early, to keep what happened before the panel opened.
 *
 * @example
 * const client = createToolgate();
 * const recorder = createDevtoolsRecorder(client); // before connect: nothing is missed
 * client.connect(session);
 * // <ToolgateDevtools client={client} recorder={recorder} />
 */
export function createDevtoolsRecorder(client: Pick<ToolgateClient, 'onEvent'>, options: DevtoolsRecorderOptions = {}): DevtoolsRecorder {
  const limit = options.limit ?? 20_000;
  const schedule = options.scheduleFrame ?? defaultScheduleFrame;
  let entries: RecordedEntry[] = [];
  let recording: Recording = { entries, base: undefined };
  // Entries with a state so far: every CHECKPOINT_EVERY-th keeps it whole, the first one always.
  let stateful = 0;
  let full = false;
  let byCall = new Map<string, RecordedEntry[]>();
  const seen = { callIds: new Set<string>(), types: new Set<string>(), turnIds: new Set<string>() };
  let choices: DevtoolsRecorderState['choices'] = { callIds: [], types: [], turnIds: [] };
  let choicesChanged = false;
  const note = (set: Set<string>, value: string | undefined) => {
    if (value === undefined || set.has(value)) return;
    set.add(value);
    choicesChanged = true;
  };
  let snapshot: DevtoolsRecorderState = { entries, length: 0, full, choices, byCall };
  const listeners = new Set<() => void>();
  let scheduled = false;
  // An approval answer names its request; the request named its call.
  const callOfRequest = new Map<string, string>();
  const turnOfCall = new Map<string, string>();

  const flush = (): void => {
    scheduled = false;
    if (snapshot.length === entries.length && snapshot.full === full && snapshot.entries === entries) return;
    if (choicesChanged) {
      choicesChanged = false;
      choices = { callIds: [...seen.callIds], types: [...seen.types].sort(), turnIds: [...seen.turnIds] };
    }
    snapshot = { entries, length: entries.length, full, choices, byCall };
    for (const listener of [...listeners]) listener();
  };
  const changed = (): void => {
    if (scheduled || listeners.size === 0) return;
    scheduled = true;
    schedule(flush);
  };

  const record = (event: ToolgateEvent): void => {
    if (full) return;
    if (entries.length >= limit) {
      full = true;
      changed();
      return;
    }
    let callId: string | undefined;
    let state: ToolStreamState | undefined;
    switch (event.source) {
      case 'session':
      case 'page': {
        state = event.state;
        callId = textOf(field(event.event, 'callId'));
        const requestId = textOf(field(event.event, 'requestId'));
        if (requestId !== undefined && callId !== undefined) callOfRequest.set(requestId, callId);
        break;
      }
      case 'tool-call':
      case 'answer': {
        callId = textOf(field(event.message, 'callId')) ?? callOfRequest.get(textOf(field(event.message, 'requestId')) ?? '');
        const turnId = textOf(field(event.message, 'turnId'));
        if (callId !== undefined && turnId !== undefined) turnOfCall.set(callId, turnId);
        break;
      }
      case 'error':
        callId = textOf(field(event.detail, 'callId'));
        break;
    }
    // The reducer's own record, not `callOf`: a reader's copy of the call (its text, its preview)
    // is made only when a view reads the entry's `call`. Only its turn is read here.
    if (callId !== undefined && state !== undefined) {
      const turnId = (recordOf(state, callId) ?? callOf(state, callId))?.turnId;
      if (turnId !== undefined) turnOfCall.set(callId, turnId);
    }
    const turnId = callId === undefined ? undefined : turnOfCall.get(callId);
    const type = typeOf(event);
    note(seen.types, type);
    note(seen.callIds, callId);
    note(seen.turnIds, turnId);
    // The tap's entry holds the whole state: kept only at a checkpoint.
    let kept: ToolStreamState | undefined;
    let verdict: ToolEventVerdict | undefined;
    if (event.source === 'session' || event.source === 'page') {
      verdict = event.verdict;
      if (stateful++ % CHECKPOINT_EVERY === 0) kept = state;
    }
    const outcome = event.source === 'error' ? { reason: event.reason, code: event.code } : verdict;
    recording.base ??= event.at;
    const entry = new RecordedEntry(entries.length, event.source, event.at - recording.base, payloadOf(event), outcome, type, callId, turnId, kept, recording);
    entries.push(entry);
    if (callId !== undefined) {
      const list = byCall.get(callId);
      if (list === undefined) byCall.set(callId, [entry]);
      else list.push(entry);
    }
    changed();
  };

  const stopListening = client.onEvent(record);
  return {
    getState: () => snapshot,
    flush,
    subscribe(listener) {
      listeners.add(listener);
      // Entries made while nobody listened are told to the first listener.
      if (snapshot.length !== entries.length) changed();
      return () => void listeners.delete(listener);
    },
    clear() {
      entries = [];
      recording = { entries, base: undefined };
      stateful = 0;
      full = false;
      byCall = new Map();
      for (const set of Object.values(seen)) set.clear();
      choicesChanged = false;
      choices = { callIds: [], types: [], turnIds: [] };
      callOfRequest.clear();
      turnOfCall.clear();
      snapshot = { entries, length: 0, full, choices, byCall };
      for (const listener of [...listeners]) listener();
    },
    stop: stopListening,
  };
}

function defaultScheduleFrame(flush: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
}
