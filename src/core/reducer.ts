/**
 * The pure reducer of a session's tool events.
 *
 * `reduceToolEvent` never throws, returns the same object for an event it ignores, and never
 * changes what an older state shows, so React snapshots stay valid and old states can be
 * reduced again (replay, property tests). Streams are for display only: nothing here runs a
 * tool (seed 000: "arguments-complete runs nothing"; seed 002: "publishing an event named
 * after a tool does not invoke it").
 */
import { isTerminalStatus, nextCallStatus } from './call-lifecycle';
import { callOf, callRecord, emptyCallTable, setCall, TABLE, type CallTable } from './call-table';
import { snapshotJson } from './json-value';

export { callOf };
import { applyPreview, previewsCount, type PreviewMode } from './legacy-preview';
import { appendArguments, createToolCall, resetArguments, settleArguments, updateToolCall, type ToolCall, type ToolCallFields } from './tool-call';
import { validateToolEvent } from './validate-event';
import type { ToolEvent, ToolStreamEvent } from './wire';

/**
 * The reducer's state: every call by id, their order, and whether the session closed. Never changed once handed out.
 *
 * @example
 * const state: ToolStreamState = reduceToolEvent(initialToolStreamState(), event);
 * for (const id of state.order) render(state.calls[id]!);
 */
export interface ToolStreamState {
  /** Every call of the session by id (own keys only: read an id you did not get from `order` with `callOf`). */
  readonly calls: Readonly<Record<string, ToolCall>>;
  /** Call ids in the order their calls began. */
  readonly order: readonly string[];
  /** The session closed: final; later events change nothing. */
  readonly closed: boolean;
  /** Whether `tool.preview` events build calls (from the session's capabilities). */
  readonly previewMode: PreviewMode;
  /** The session has spoken `tool.stream`: in `auto` mode, previews are ignored from then on. */
  readonly speaksStream: boolean;
  /** The highest `seq` applied; an event at or below it is a repeat. */
  readonly lastSeq: number | undefined;
}

/**
 * Options of the initial state.
 *
 * @example
 * const state = initialToolStreamState({ previewMode: 'stream' } satisfies ToolStreamStateOptions);
 */
export interface ToolStreamStateOptions {
  /** `auto` (default): previews until the session first speaks `tool.stream`. */
  previewMode?: PreviewMode;
}

/**
 * What the reducer is told besides the event.
 *
 * @example
 * const next = reduceToolEvent(state, event, { now: performance.now() } satisfies ReduceMeta);
 */
export interface ReduceMeta {
  /** The time to stamp on the call (ms); the reducer reads no clock of its own. */
  now?: number;
}

/**
 * Why an event changed nothing and is worth reporting.
 *
 * @example
 * const store = createToolStreamStore({
 *   onError: (reason, event, issue) => issue === 'malformed' && report(reason),
 * });
 */
export type ToolEventIssue =
  | 'malformed'
  | 'unknown-call'
  | 'duplicate-start'
  | 'out-of-order'
  | 'after-terminal'
  | 'repeated-seq'
  | 'session-closed'
  | 'wrong-mode';

/**
 * What the reducer makes of an event:
 * - `applied`: the state changed (`warning` tells of argument text that is not JSON, kept and shown);
 * - `ignored`: expected and silent (not a tool event, a preview superseded by `tool.stream`,
 *   the server's own echo of a call already cancelled here);
 * - `rejected`: changed nothing, and worth reporting through `onError`.
 *
 * @example
 * const verdict: ToolEventVerdict = explainToolEvent(store.getState(), event);
 * if (verdict.outcome === 'rejected') console.warn(verdict.issue, verdict.reason);
 */
export type ToolEventVerdict =
  | { outcome: 'applied'; warning?: string }
  | { outcome: 'ignored'; reason: string }
  | { outcome: 'rejected'; issue: ToolEventIssue; reason: string };

/**
 * The state of a session before any event.
 *
 * @example
 * let state = initialToolStreamState();
 * state = reduceToolEvent(state, { type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'search' });
 */
export function initialToolStreamState(options: ToolStreamStateOptions = {}): ToolStreamState {
  return Object.assign(Object.create(STATE) as ToolStreamState, {
    order: Object.freeze([]) as readonly string[],
    closed: false,
    previewMode: options.previewMode ?? 'auto',
    speaksStream: false,
    lastSeq: undefined,
    [TABLE]: emptyCallTable(),
  });
}


/**
 * What every state shares: `calls`, built from the state's table when first read (a frozen
 * record, the same object on every read of that state), and a JSON form that includes it.
 */
const STATE = {
  get calls(): Readonly<Record<string, ToolCall>> {
    return callRecord(tableOf(this as unknown as ToolStreamState));
  },
  toJSON(this: ToolStreamState) {
    return { ...this, calls: this.calls };
  },
};

/** The table of a state; a state made elsewhere (a plain object) gets one built from its record. */
function tableOf(state: ToolStreamState): CallTable {
  const own = (state as { [TABLE]?: CallTable })[TABLE];
  if (own !== undefined) return own;
  let table = emptyCallTable();
  for (const id of state.order) {
    const call = Object.prototype.hasOwnProperty.call(state.calls, id) ? state.calls[id] : undefined;
    if (call !== undefined) table = setCall(table, call);
  }
  return table;
}

/**
 * Reduce one event into the state. Never throws; returns `state` itself for an event it
 * ignores or rejects (ask `explainToolEvent` why).
 *
 * @example
 * const next = reduceToolEvent(state, { type: 'tool.stream', phase: 'arguments-delta', callId: 'c1', delta: '{"q":' }, { now: Date.now() });
 */
export function reduceToolEvent<S extends ToolStreamState>(state: S, event: unknown, meta: ReduceMeta = {}): S {
  return stepToolEvent(state, event, meta).state;
}

/**
 * Why the reducer would apply, ignore or reject `event` in `state`, without reducing it.
 *
 * @example
 * explainToolEvent(state, { type: 'tool.stream', phase: 'progress', callId: 'nope', progress: 1 })
 * // { outcome: 'rejected', issue: 'unknown-call', reason: '…' }
 */
export function explainToolEvent(state: ToolStreamState, event: unknown): ToolEventVerdict {
  try {
    const judged = judge(state, event);
    return judged.verdict.outcome === 'applied' ? { outcome: 'applied' } : judged.verdict;
  } catch (error) {
    // The same answer as the reducer's own guard: explaining an event must not throw either.
    return couldNotReduce(error);
  }
}

/**
 * Reduce and say what happened: the store uses this to report without judging twice.
 *
 * @example
 * const { state, verdict } = stepToolEvent(previous, event, { now: Date.now() });
 * if (verdict.outcome === 'rejected') log(verdict.reason);
 */
export function stepToolEvent<S extends ToolStreamState>(state: S, event: unknown, meta: ReduceMeta = {}): { state: S; verdict: ToolEventVerdict } {
  try {
    const judged = judge(state, event);
    if (!('event' in judged)) return { state, verdict: judged.verdict };
    return apply(state, judged.event, meta.now);
  } catch (error) {
    // Defensive: the reducer must never throw into a render or an event loop.
    return { state, verdict: couldNotReduce(error) };
  }
}

const couldNotReduce = (error: unknown): ToolEventVerdict => ({
  outcome: 'rejected',
  issue: 'malformed',
  reason: `the event could not be reduced: ${String(error)}`,
});

type Judged = { verdict: { outcome: 'applied' }; event: ToolEvent } | { verdict: Exclude<ToolEventVerdict, { outcome: 'applied' }> };

const reject = (issue: ToolEventIssue, reason: string): Judged => ({ verdict: { outcome: 'rejected', issue, reason } });
const ignore = (reason: string): Judged => ({ verdict: { outcome: 'ignored', reason } });

function judge(state: ToolStreamState, raw: unknown): Judged {
  const validated = validateToolEvent(raw);
  if (validated.kind === 'other') return ignore(`'${validated.type}' is not a tool event`);
  if (validated.kind === 'malformed') return reject('malformed', validated.reason);
  const event = validated.event;

  if (state.closed) {
    return event.type === 'closed' || event.type === 'toolgate.interrupt'
      ? ignore('the session is already closed')
      : reject('session-closed', `${describeEvent(event)} arrived after the session closed`);
  }
  if ('seq' in event && event.seq !== undefined && state.lastSeq !== undefined && event.seq <= state.lastSeq) {
    return reject('repeated-seq', `${describeEvent(event)} repeats seq ${event.seq} (last seen ${state.lastSeq})`);
  }
  const applied: Judged = { verdict: { outcome: 'applied' }, event };

  switch (event.type) {
    case 'closed':
      return applied;
    case 'toolgate.interrupt':
      return openCallsOf(state, event.turnId).length > 0 ? applied : ignore('no open call in that turn');
    case 'tool.preview': {
      if (!previewsCount(state.previewMode, state.speaksStream)) return ignore('tool.preview is superseded by tool.stream');
      const call = callOf(state, event.callId);
      if (call?.source === 'stream') return ignore(`call '${event.callId}' is shown from tool.stream`);
      if (call !== undefined && isTerminalStatus(call.status)) {
        return reject('after-terminal', `${describeEvent(event)} arrived after the call was ${call.status}`);
      }
      return applied;
    }
    case 'tool.stream':
      return judgeStream(state, event, applied);
    default:
      return event satisfies never;
  }
}

function judgeStream(state: ToolStreamState, event: ToolStreamEvent, applied: Judged): Judged {
  if (state.previewMode === 'preview') {
    return reject('wrong-mode', `${describeEvent(event)} arrived but the session is in preview mode`);
  }
  const call = callOf(state, event.callId);
  if (event.phase === 'start') {
    if (call !== undefined && call.source === 'stream') {
      return reject('duplicate-start', `${describeEvent(event)}: the call has already started`);
    }
    return applied; // a new call, or the stream taking over a call built from previews
  }
  if (call === undefined || call.source === 'preview') {
    return reject('unknown-call', `${describeEvent(event)}: no call '${event.callId}' has started`);
  }
  if (call.cancelledBy === 'local') {
    // The user interrupted here, before the server knew. Its own cancel is an echo; anything
    // else in flight changes nothing, except a settled outcome, which is kept and shown once.
    if (event.phase === 'settled' && call.lateOutcome === undefined) return applied;
    if (event.phase === 'settled') return reject('after-terminal', `${describeEvent(event)}: the call already has a late outcome`);
    return ignore(`call '${call.callId}' was cancelled here; the server had not yet heard`);
  }
  if (isTerminalStatus(call.status)) {
    return reject('after-terminal', `${describeEvent(event)} arrived after the call was ${call.status}`);
  }
  if (nextCallStatus(call.status, event.phase) === undefined) {
    return reject('out-of-order', `${describeEvent(event)} is out of order: the call is ${call.status}`);
  }
  return applied;
}

type Next = Partial<Pick<ToolStreamState, 'order' | 'closed' | 'speaksStream'>> & { table?: CallTable };
type Done<S> = (next: Next, warning?: string) => { state: S; verdict: ToolEventVerdict };

const APPLIED: ToolEventVerdict = { outcome: 'applied' };

function apply<S extends ToolStreamState>(state: S, event: ToolEvent, now: number | undefined): { state: S; verdict: ToolEventVerdict } {
  const seq = 'seq' in event && event.seq !== undefined ? event.seq : state.lastSeq;
  const done: Done<S> = (next, warning) => {
    // Copy every own field (a store's actions too) onto a new state, then change what changed.
    const copy: { -readonly [K in keyof ToolStreamState]: ToolStreamState[K] } = Object.assign(Object.create(STATE) as ToolStreamState, state);
    if (next.table !== undefined) (copy as { [TABLE]?: CallTable })[TABLE] = next.table;
    else if ((state as { [TABLE]?: CallTable })[TABLE] === undefined) (copy as { [TABLE]?: CallTable })[TABLE] = tableOf(state);
    if (next.order !== undefined) copy.order = next.order;
    if (next.closed !== undefined) copy.closed = next.closed;
    if (next.speaksStream !== undefined) copy.speaksStream = next.speaksStream;
    copy.lastSeq = seq;
    return { state: copy as S, verdict: warning === undefined ? APPLIED : { outcome: 'applied', warning } };
  };

  switch (event.type) {
    case 'closed':
      // seed 000: on final close, clear preview state from the public closed event.
      return done({ table: emptyCallTable(), order: Object.freeze([]), closed: true });
    case 'toolgate.interrupt': {
      let table = tableOf(state);
      for (const call of openCallsOf(state, event.turnId)) {
        table = setCall(table, settleArguments(call, { status: 'cancelled', cancelledBy: 'local', endedAt: now }));
      }
      return done({ table });
    }
    case 'tool.preview': {
      const existing = callOf(state, event.callId);
      const call = applyPreview(existing, event, now);
      return done(placeCall(state, call), newWarning(existing, call));
    }
    case 'tool.stream':
      return applyStream(state, event, now, done);
    default:
      return event satisfies never;
  }
}

function applyStream<S extends ToolStreamState>(state: S, event: ToolStreamEvent, now: number | undefined, done: Done<S>) {
  if (event.phase === 'start') {
    const call = createToolCall({
      callId: event.callId,
      name: event.name,
      turnId: event.turnId,
      status: 'pending',
      source: 'stream',
      location: event.location,
      risk: event.risk,
      startedAt: now,
    });
    const shown = callOf(state, event.callId);
    if (shown !== undefined && isTerminalStatus(shown.status)) {
      // A preview call the user already cancelled here (previews end only so): the stream takes it
      // over still cancelled, with what was shown, so the server's later events are echoes and a
      // settled becomes its lateOutcome. Terminal statuses are sticky (DESIGN "The wire").
      const taken = settleArguments(resetArguments(call, shown.argumentsText, {}), {
        status: 'cancelled',
        cancelledBy: 'local',
        startedAt: shown.startedAt,
        endedAt: shown.endedAt,
      });
      return done({ speaksStream: true, ...placeCall(state, taken) });
    }
    return done({ speaksStream: true, ...placeCall(state, call) });
  }

  const call = callOf(state, event.callId) as ToolCall;
  const update = (next: ToolCall, warning?: string) => done({ speaksStream: true, table: setCall(tableOf(state), next) }, warning);

  switch (event.phase) {
    case 'arguments-delta': {
      const next = appendArguments(call, event.delta, { status: 'streaming' });
      return update(next, newWarning(call, next));
    }
    case 'arguments-complete': {
      const final = finalArguments(event.arguments);
      const fields: Partial<ToolCallFields> = final.ok
        ? { status: 'issued', issuedAt: now, arguments: final.value, argumentsError: undefined }
        : { status: 'issued', issuedAt: now, argumentsError: final.reason };
      return update(settleArguments(call, fields), final.ok ? undefined : `call '${call.callId}': ${final.reason}`);
    }
    case 'progress':
      return update(updateToolCall(call, { progress: event.progress }));
    case 'settled':
      if (call.cancelledBy === 'local') {
        return update(updateToolCall(call, { lateOutcome: { ok: event.ok, code: event.code, at: now } }));
      }
      return update(updateToolCall(call, { status: 'settled', ok: event.ok, code: event.code, endedAt: now }));
    case 'cancelled':
      return update(settleArguments(call, { status: 'cancelled', cancelledBy: 'server', endedAt: now }));
    case 'failed':
      return update(settleArguments(call, { status: 'failed', message: event.message, endedAt: now }));
    default:
      return event satisfies never;
  }
}

/** The final value of `arguments-complete`: a JSON value, or JSON text as a string. */
function finalArguments(value: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (typeof value === 'string') {
    try {
      return snapshotJson(JSON.parse(value));
    } catch (error) {
      return { ok: false, reason: `the final arguments are not valid JSON: ${(error as Error).message}` };
    }
  }
  return snapshotJson(value);
}

/** A warning the moment a call's argument text first turns out not to be JSON. */
function newWarning(before: ToolCall | undefined, after: ToolCall): string | undefined {
  return after.argumentsError !== undefined && after.argumentsError !== before?.argumentsError
    ? `call '${after.callId}': the argument text is not valid JSON: ${after.argumentsError}`
    : undefined;
}

function openCallsOf(state: ToolStreamState, turnId: string | undefined): ToolCall[] {
  const open: ToolCall[] = [];
  for (const id of state.order) {
    const call = callOf(state, id) as ToolCall;
    if (isTerminalStatus(call.status)) continue;
    // A legacy preview without a turn is cancelled by any interrupt (DESIGN "Legacy previews").
    if (turnId === undefined || call.turnId === turnId || (call.source === 'preview' && call.turnId === undefined)) {
      open.push(call);
    }
  }
  return open;
}

/** Put a call in the state: new ones go to the end of `order`; replacements keep their place. */
function placeCall(state: ToolStreamState, call: ToolCall): { table: CallTable; order: readonly string[] } {
  const known = callOf(state, call.callId) !== undefined;
  return { table: setCall(tableOf(state), call), order: known ? state.order : Object.freeze([...state.order, call.callId]) };
}

function describeEvent(event: ToolEvent): string {
  switch (event.type) {
    case 'tool.stream':
      return `tool.stream ${event.phase} for call '${event.callId}'`;
    case 'tool.preview':
      return `tool.preview for call '${event.callId}'`;
    default:
      return event.type;
  }
}
