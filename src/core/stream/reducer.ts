/**
 * The pure reducer of a session's tool events.
 *
 * `reduceToolEvent` never throws, returns the same object for an event it ignores, and never
 * changes what an older state shows, so React snapshots stay valid and old states can be
 * reduced again (replay, property tests). Streams are for display only: nothing here runs a
 * tool (docs/protocol.md, "Rules of the stream"; "Rooms": publishing an event
 * named after a tool does not invoke it).
 */
import { isTerminalStatus, nextCallStatus } from './call-lifecycle';
import { callOf, callRecord, emptyCallTable, getCall, orderOf, recordsOf, setCall, TABLE, type CallTable } from './call-table';
import { applyPreview, previewsCount, type PreviewMode } from './legacy-preview';
import { TOOL_APPROVALS, type ApprovalMark, type LocalToolEvent, type ToolApproval } from './local-events';
import { fromToolCall, settleArguments, updateToolCall, type CallRecord, type ToolCall, type ToolCallFields } from './tool-call';
import { copyFields, rules, textWarning, TOOL_PHASES, type FieldRule, type PhaseSpec, type PhaseStep, type ToolEventWarningCode } from './tool-phases';
import { validateToolEvent } from './validate-event';
import type { ToolEvent, ToolStreamEvent, ToolStreamPhase } from '../wire';

export { callOf };

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
  | 'wrong-mode'
  /** A session frame named an event only the page may produce (a local interrupt, an approval mark). */
  | 'local-only';

export type { ToolEventWarningCode };

/**
 * What the reducer makes of an event:
 * - `applied`: the state changed (`warning` tells of something worth knowing that the call now
 *   shows: argument text that is not JSON, final arguments that contradict the streamed text, a
 *   key written twice; `warningCode` says which);
 * - `ignored`: expected and silent (not a tool event, a preview superseded by `tool.stream`,
 *   the server's own echo of a call already cancelled here);
 * - `rejected`: changed nothing, and worth reporting through `onError`.
 *
 * @example
 * const verdict: ToolEventVerdict = explainToolEvent(store.getState(), event);
 * if (verdict.outcome === 'rejected') console.warn(verdict.issue, verdict.reason);
 */
export type ToolEventVerdict =
  | { outcome: 'applied'; warning?: string; warningCode?: ToolEventWarningCode }
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
  return makeState({ closed: false, previewMode: options.previewMode ?? 'auto', speaksStream: false, lastSeq: undefined }, emptyCallTable());
}

/**
 * `calls` and `order`, own and enumerable on every state (so a spread, `Object.assign` or
 * `JSON.stringify` of a state keeps them), built from the state's table when first read: the
 * record once per state, the order once per number of calls. Shared getters, so every state has
 * one shape.
 */
const CALLS_VIEW: PropertyDescriptor = {
  get(this: ToolStreamState): Readonly<Record<string, ToolCall>> {
    return callRecord(tableOf(this));
  },
  enumerable: true,
};
const ORDER_VIEW: PropertyDescriptor = {
  get(this: ToolStreamState): readonly string[] {
    return orderOf(tableOf(this));
  },
  enumerable: true,
};

/** A state: `fields` (a store's actions too), the table, and the views built from it. */
function makeState<S extends object>(fields: S, table: CallTable): S & ToolStreamState {
  (fields as { [TABLE]?: CallTable })[TABLE] = table;
  // Two defineProperty calls cost less than one defineProperties here.
  Object.defineProperty(fields, 'calls', CALLS_VIEW);
  Object.defineProperty(fields, 'order', ORDER_VIEW);
  return fields as S & ToolStreamState;
}

/** The fields every state has (and its views), set by name; any other own field is carried over. */
const STATE_FIELDS: Readonly<Record<string, 1>> = Object.assign(Object.create(null) as Record<string, 1>, {
  closed: 1,
  previewMode: 1,
  speaksStream: 1,
  lastSeq: 1,
  calls: 1,
  order: 1,
});

/** Tables built for states made elsewhere (plain objects with `calls` and `order`), once each. */
const builtTables = new WeakMap<object, CallTable>();

/** The table of a state; a state made elsewhere (a plain object) gets one built from its record. */
function tableOf(state: ToolStreamState): CallTable {
  const own = (state as { [TABLE]?: CallTable })[TABLE];
  if (own !== undefined) return own;
  let table = builtTables.get(state);
  if (table === undefined) {
    table = emptyCallTable();
    for (const id of state.order) {
      const call = Object.prototype.hasOwnProperty.call(state.calls, id) ? state.calls[id] : undefined;
      if (call !== undefined) table = setCall(table, fromToolCall(call));
    }
    builtTables.set(state, table);
  }
  return table;
}

/** The reducer's record of a call in `state`. */
const recordIn = (state: ToolStreamState, callId: string): CallRecord | undefined => getCall(tableOf(state), callId);

/**
 * Reduce one session event into the state. Never throws; returns `state` itself for an event it
 * ignores or rejects (ask `explainToolEvent` why). A frame naming an event only the page may
 * produce is rejected (`local-only`): the page's own events go through {@link reduceLocalToolEvent}.
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
 * Reduce a session event and say what happened: the store uses this to report without judging twice.
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

/**
 * Reduce one of the page's own events (a local interrupt, an approval mark): what the store's
 * `interrupt` and `markApproval` do. Never throws; returns `state` itself when nothing changes.
 *
 * @example
 * const next = reduceLocalToolEvent(state, { type: 'interrupt', turnId: 't1' }, { now: Date.now() });
 */
export function reduceLocalToolEvent<S extends ToolStreamState>(state: S, event: LocalToolEvent, meta: ReduceMeta = {}): S {
  return stepLocalToolEvent(state, event, meta).state;
}

/**
 * Reduce one of the page's own events and say what happened.
 *
 * @example
 * const { verdict } = stepLocalToolEvent(state, { type: 'approval', callId: 'c1', mark: { approval: 'awaiting' } });
 */
export function stepLocalToolEvent<S extends ToolStreamState>(state: S, event: LocalToolEvent, meta: ReduceMeta = {}): { state: S; verdict: ToolEventVerdict } {
  try {
    const judged = judgeLocal(state, event, meta.now);
    if (!('next' in judged)) return { state, verdict: judged.verdict };
    return { state: nextState(state, judged.next, state.lastSeq), verdict: APPLIED };
  } catch (error) {
    return { state, verdict: couldNotReduce(error) };
  }
}

const couldNotReduce = (error: unknown): ToolEventVerdict => ({
  outcome: 'rejected',
  issue: 'malformed',
  reason: `the event could not be reduced: ${String(error)}`,
});

type Judged = { verdict: { outcome: 'applied' }; event: ToolEvent } | { verdict: Exclude<ToolEventVerdict, { outcome: 'applied' }> };

const reject = (issue: ToolEventIssue, reason: string) => ({ verdict: { outcome: 'rejected' as const, issue, reason } });
const ignore = (reason: string) => ({ verdict: { outcome: 'ignored' as const, reason } });

function judge(state: ToolStreamState, raw: unknown): Judged {
  const validated = validateToolEvent(raw);
  if (validated.kind === 'other') return ignore(`'${validated.type}' is not a tool event`);
  if (validated.kind === 'malformed') return reject('malformed', validated.reason);
  // docs/protocol.md, "Rules of the stream": a session never produces the page's own events, however it spells them.
  if (validated.kind === 'local-only') return reject('local-only', validated.reason);
  const event = validated.event;

  if (state.closed) {
    return event.type === 'closed' ? ignore('the session is already closed') : reject('session-closed', `${describeEvent(event)} arrived after the session closed`);
  }
  if (event.seq !== undefined && state.lastSeq !== undefined && event.seq <= state.lastSeq) {
    return reject('repeated-seq', `${describeEvent(event)} repeats seq ${event.seq} (last seen ${state.lastSeq})`);
  }
  const applied: Judged = { verdict: { outcome: 'applied' }, event };

  switch (event.type) {
    case 'closed':
      return applied;
    case 'tool.preview': {
      if (!previewsCount(state.previewMode, state.speaksStream)) return ignore('tool.preview is superseded by tool.stream');
      const call = recordIn(state, event.callId);
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
  const call = recordIn(state, event.callId);
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
    // else in flight changes nothing, except an outcome, which is kept and shown once.
    if (TOOL_PHASES[event.phase].afterLocalCancel === 'late-outcome') {
      return call.lateOutcome === undefined ? applied : reject('after-terminal', `${describeEvent(event)}: the call already has a late outcome`);
    }
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

/* ------------------------------------------------------------ local events */

type LocalJudged = { next: Next } | { verdict: Exclude<ToolEventVerdict, { outcome: 'applied' }> };

function judgeLocal(state: ToolStreamState, event: LocalToolEvent, now: number | undefined): LocalJudged {
  // Read once, as every event is: the page's own values are copied before they are used.
  const type = event.type;
  if (state.closed) return ignore('the session is already closed');
  switch (type) {
    case 'interrupt': {
      const turnId = event.turnId;
      if (turnId !== undefined && typeof turnId !== 'string') return reject('malformed', `interrupt: turnId must be a string, got ${typeof turnId}`);
      const open = openCallsOf(state, turnId);
      if (open.length === 0) return ignore('no open call in that turn');
      let table = tableOf(state);
      for (const call of open) table = setCall(table, settleArguments(call, { status: 'cancelled', cancelledBy: 'local', endedAt: now }));
      return { next: { table } };
    }
    case 'approval':
      return judgeApproval(state, event.callId, event.mark);
    default:
      return reject('malformed', `a local event of an unknown type ${JSON.stringify(String(type))}`);
  }
}

/** `markApproval`: the page says where a call stands with a person's approval. */
function judgeApproval(state: ToolStreamState, callId: unknown, rawMark: unknown): LocalJudged {
  if (typeof callId !== 'string' || callId === '') return reject('malformed', 'markApproval: callId must be a non-empty string');
  const mark = copyMark(rawMark);
  if (typeof mark === 'string') return reject('malformed', `markApproval for call '${callId}': ${mark}`);
  const call = recordIn(state, callId);
  if (call === undefined) return reject('unknown-call', `markApproval for call '${callId}': no call '${callId}' has started`);
  const from = call.approval;
  // The server's last word: an answer it refused (too late, or not matching what it asked) ran
  // nothing, so the mark it gave says so (docs/guarantees.md, "The card follows the server's last word").
  // So does a denial the page sent in an approval's place (the call changed after it was shown):
  // the approval record allows the same (`approval-record.ts`), and the call follows its record.
  const overruled = from === 'approved' && (mark.approval === 'expired' || mark.approval === 'refused' || mark.approval === 'denied');
  if (from !== undefined && from !== 'awaiting' && mark.approval !== from && !overruled) {
    // A decision is final: an approval after expiry, or a second answer, changes nothing (docs/protocol.md, "Expiry").
    return reject('out-of-order', `markApproval for call '${callId}': the approval is already ${from}`);
  }
  if (mark.approval === 'awaiting' && isTerminalStatus(call.status)) {
    return reject('after-terminal', `markApproval for call '${callId}': the call is ${call.status}; it waits for no approval`);
  }
  const changes: Partial<ToolCallFields> = approvalFieldsOf(mark);
  if (sameMark(call, changes)) return ignore(`call '${callId}' is already marked so`);
  return { next: { table: setCall(tableOf(state), updateToolCall(call, changes)) } };
}

type CopiedMark = Pick<ApprovalMark, 'approval' | 'approvedArguments' | 'edited' | 'grant' | 'reason' | 'by' | 'ruleId' | 'ruleLabel'>;

/**
 * How each field of a mark is checked and copied (the approved arguments deep-frozen), as an
 * event's fields are. Made on the first mark, not at load: a bundle that imports this module only
 * for `approvalFieldsOf` (a card) must be able to drop the rules and everything they import.
 */
let markFields: { readonly [K in keyof Required<ApprovalMark>]: FieldRule } | undefined;
const markFieldsOf = () =>
  (markFields ??= {
    approval: rules.oneOf(TOOL_APPROVALS),
    approvedArguments: rules.optional(rules.json),
    edited: rules.optional(rules.boolean),
    grant: rules.optional(rules.string),
    reason: rules.optional(rules.string),
    by: rules.optional(rules.oneOf(['rule'])),
    ruleId: rules.optional(rules.string),
    ruleLabel: rules.optional(rules.string),
  });

/** The mark, each own field read once and checked; the approved arguments copied and deep-frozen. */
function copyMark(raw: unknown): CopiedMark | string {
  if (typeof raw !== 'object' || raw === null) return 'the mark must be an object';
  const out: Record<string, unknown> = {};
  return copyFields(raw, markFieldsOf(), out) ?? (out as unknown as CopiedMark);
}

function sameMark(call: CallRecord, changes: Partial<ToolCallFields>): boolean {
  for (const key of Object.keys(changes) as (keyof ToolCallFields)[]) {
    const a = changes[key];
    const b = call[key];
    if (a === b) continue;
    if (key === 'approvedArguments' && JSON.stringify(a) === JSON.stringify(b)) continue;
    return false;
  }
  return true;
}

/* ------------------------------------------------------------- applying */

type Next = Partial<Pick<ToolStreamState, 'closed' | 'speaksStream'>> & { table?: CallTable };

const APPLIED: ToolEventVerdict = { outcome: 'applied' };

/** A new state: its own fields, every other own field of `state` (a store's actions too), the table. */
function nextState<S extends ToolStreamState>(state: S, next: Next, seq: number | undefined): S {
  const fields: Record<string, unknown> = {
    closed: next.closed ?? state.closed,
    previewMode: state.previewMode,
    speaksStream: next.speaksStream ?? state.speaksStream,
    lastSeq: seq,
  };
  for (const key in state) if (STATE_FIELDS[key] !== 1) fields[key] = state[key];
  return makeState(fields, next.table ?? tableOf(state)) as unknown as S;
}

function apply<S extends ToolStreamState>(state: S, event: ToolEvent, now: number | undefined): { state: S; verdict: ToolEventVerdict } {
  const seq = event.seq !== undefined ? event.seq : state.lastSeq;
  const done = (next: Next, warning?: PhaseStep['warning']) => ({
    state: nextState(state, next, seq),
    verdict: warning === undefined ? APPLIED : ({ outcome: 'applied', warning: warning.reason, warningCode: warning.code } as const),
  });

  switch (event.type) {
    case 'closed':
      // docs/protocol.md, "Rules of the stream": on final close, clear preview state from the public closed event.
      return done({ table: emptyCallTable(), closed: true });
    case 'tool.preview': {
      const existing = recordIn(state, event.callId);
      const call = applyPreview(existing, event, now);
      return done(placeCall(state, call), textWarning(existing, call).warning);
    }
    case 'tool.stream': {
      // The phase's own spec says what it does (tool-phases.ts).
      const shown = recordIn(state, event.callId);
      const phase = event.phase;
      const status = phase === 'start' ? 'pending' : (nextCallStatus((shown as CallRecord).status, phase) ?? (shown as CallRecord).status);
      const spec = TOOL_PHASES[phase] as unknown as PhaseSpec<ToolStreamPhase>;
      const step = spec.apply(shown as CallRecord, event as never, { now, status });
      return done({ speaksStream: true, ...placeCall(state, step.call) }, step.warning);
    }
    default:
      return event satisfies never;
  }
}

function openCallsOf(state: ToolStreamState, turnId: string | undefined): CallRecord[] {
  const open: CallRecord[] = [];
  for (const call of recordsOf(tableOf(state))) {
    if (isTerminalStatus(call.status)) continue;
    // A legacy preview without a turn is cancelled by any interrupt (docs/protocol.md, "Legacy previews").
    if (turnId === undefined || call.turnId === turnId || (call.source === 'preview' && call.turnId === undefined)) {
      open.push(call);
    }
  }
  return open;
}

/** Put a call in the state: new ones go to the end of `order`; replacements keep their place. */
function placeCall(state: ToolStreamState, call: CallRecord): { table: CallTable } {
  return { table: setCall(tableOf(state), call) };
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

/**
 * A call's approval fields as a mark sets them: the one list of which mark field becomes which call
 * field, read by the reducer and by a card that shows an approval record (`use-shown-approval.ts`).
 */
export function approvalFieldsOf(mark: ApprovalMark): Pick<
  ToolCallFields,
  'approval' | 'approvedArguments' | 'approvalEdited' | 'approvalGrant' | 'approvalReason' | 'approvalBy' | 'approvalRuleId' | 'approvalRuleLabel'
> {
  return {
    approval: mark.approval,
    approvedArguments: mark.approvedArguments,
    approvalEdited: mark.edited,
    approvalGrant: mark.grant,
    approvalReason: mark.reason,
    approvalBy: mark.by,
    approvalRuleId: mark.ruleId,
    approvalRuleLabel: mark.ruleLabel,
  };
}
