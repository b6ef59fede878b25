/**
 * One spec per `tool.stream` phase: the fields it carries and how each is checked, where it takes
 * a call, what it does to a call after the user cancelled it here and what the reducer makes of it.
 * Validation (`validate-event.ts`), the lifecycle table (`call-lifecycle.ts`) and the reducer read
 * this one place, so a new phase is its interface in `wire.ts` and its entry here (and its defaults
 * in the testing builders, `src/testing/tool-events.ts`, which TypeScript asks for: they stay out
 * of the store's bundle).
 *
 * (docs/protocol.md, "Rules of the stream"): every call starts with `start` and ends with exactly one of
 * `settled`, `cancelled` or `failed`, unless the session ends first.
 */
import type { ToolCallStatus } from './call-status';
import { snapshotJson, type JsonValue } from '../json/json-value';
import { formatJsonPath } from '../json/json-diff';
import { compareWithStream, duplicateKeyIn } from './streamed-arguments';
import {
  appendArguments,
  argumentsAreComplete,
  createToolCall,
  resetArguments,
  settleArguments,
  updateToolCall,
  type CallRecord,
  type LateOutcome,
  type ToolCallFields,
} from './tool-call';
import type { ToolStreamEvent, ToolStreamPhase } from '../wire';

/* ------------------------------------------------------------------ fields */

/**
 * A field's value as validation copied it, or why it is wrong.
 *
 * @example
 * const checked: FieldCheck = TOOL_PHASES.settled.fields.ok(true, 'ok'); // { ok: true, value: true }
 */
export type FieldCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * How one field is checked and copied: given the value read once from the raw event (`undefined`
 * when absent) and the field's name. What it returns is what the copied event holds (`undefined`
 * leaves the field out).
 *
 * @example
 * const rule: FieldRule = TOOL_PHASES['arguments-delta'].fields.delta;
 * rule(7, 'delta') // { ok: false, problem: 'delta must be a string, got number' }
 */
export type FieldRule = (value: unknown, key: string) => FieldCheck;

const ok = (value: unknown): FieldCheck => ({ ok: true, value });
const bad = (problem: string): FieldCheck => ({ ok: false, problem });

/** A value as a reason names it: `'abc'`, `number`, `an object`, `nothing`. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? `'${v.slice(0, 40)}…'` : `'${v}'`;
  return typeof v === 'object' ? 'an object' : typeof v === 'undefined' ? 'nothing' : typeof v;
}

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
const listOf = (values: readonly string[]): string => {
  const quoted = values.map((v) => `'${v}'`);
  const last = quoted.pop() as string;
  return quoted.length === 0 ? last : `${quoted.join(', ')} or ${last}`;
};

/** The value of an own property, read once (`undefined` when absent: inherited values never count). */
export const readOwn = (o: object, key: string): unknown => (Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined);

/**
 * Copy the fields `fields` names from `raw` into `into`, each own property read once and checked
 * by its rule; the first problem, if any. Validation copies events so, and the reducer a page's
 * approval mark: everything after reads only the copy.
 */
export function copyFields(raw: object, fields: Readonly<Record<string, FieldRule>>, into: Record<string, unknown>): string | undefined {
  for (const key in fields) {
    const checked = (fields[key] as FieldRule)(readOwn(raw, key), key);
    if (!checked.ok) return checked.problem;
    if (checked.value !== undefined) into[key] = checked.value;
  }
  return undefined;
}

/** Field rules, shared by the specs and the other events' validation. */
export const rules = {
  string: ((v, key) => (typeof v === 'string' ? ok(v) : bad(`${key} must be a string, got ${describeValue(v)}`))) as FieldRule,
  id: ((v, key) => (typeof v === 'string' && v.length > 0 ? ok(v) : bad(`${key} must be a non-empty string, got ${describeValue(v)}`))) as FieldRule,
  boolean: ((v, key) => (typeof v === 'boolean' ? ok(v) : bad(`${key} must be a boolean, got ${describeValue(v)}`))) as FieldRule,
  /** Present (anything but `undefined`); its content is read once, later, by whoever copies it. */
  present: ((v, key) => (v === undefined ? bad(`${key} are missing`) : ok(v))) as FieldRule,
  /** A JSON value, copied and deep-frozen here: later changes to the sender's object show nowhere. */
  json: ((v, key) => {
    const snapshot = snapshotJson(v, key);
    return snapshot.ok ? ok(snapshot.value) : bad(`${key} is not JSON: ${snapshot.reason}`);
  }) as FieldRule,
  /** One of `values`; the reason lists them (`'server' or 'app'`). */
  oneOf: (values: readonly string[]): FieldRule => (v, key) =>
    typeof v === 'string' && values.includes(v) ? ok(v) : bad(`${key} must be ${listOf(values)}, got ${describeValue(v)}`),
  optional: (rule: FieldRule): FieldRule => (v, key) => (v === undefined ? ok(undefined) : rule(v, key)),
};

/* -------------------------------------------------------------- the specs */

/**
 * A warning the reducer hands to `onError` with an applied event (the event still changed the call).
 *
 * @example
 * const onError = (reason: string, event: unknown, code: string) => code === ('arguments-mismatch' satisfies ToolEventWarningCode) && flag(reason);
 */
export type ToolEventWarningCode = 'invalid-arguments' | 'arguments-mismatch' | 'duplicate-key';

/**
 * What a phase did to a call.
 *
 * @example
 * const step: PhaseStep = TOOL_PHASES.progress.apply(call, event, { now: 5, status: 'issued' });
 */
export interface PhaseStep {
  call: CallRecord;
  warning?: { code: ToolEventWarningCode; reason: string };
}

/**
 * The event of one phase.
 *
 * @example
 * const settled: PhaseEvent<'settled'> = { type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true };
 */
export type PhaseEvent<P extends ToolStreamPhase> = Extract<ToolStreamEvent, { phase: P }>;
/**
 * The fields of one phase's event besides `type`, `phase`, `callId` and `seq`.
 *
 * @example
 * const fields: PhaseFields<'failed'> = { message: 'the model stopped' };
 */
export type PhaseFields<P extends ToolStreamPhase> = Omit<PhaseEvent<P>, 'type' | 'phase' | 'callId' | 'seq'>;

/**
 * Everything the kit knows of one phase.
 *
 * @example
 * TOOL_PHASES['arguments-delta'].moves.pending // 'streaming'
 */
export interface PhaseSpec<P extends ToolStreamPhase> {
  /** Every field of the phase's event (besides type, phase, callId, seq) and its rule. */
  readonly fields: { readonly [K in keyof Required<PhaseFields<P>>]: FieldRule };
  /** A check across fields, after each passed its rule; says what is wrong. */
  readonly refine?: (event: PhaseEvent<P>) => string | undefined;
  /** Where the phase takes a call, by the call's status; a status not listed: out of order. (`start` makes the call.) */
  readonly moves: Readonly<Partial<Record<ToolCallStatus, ToolCallStatus>>>;
  /**
   * After the user cancelled the call here, before the server heard: `echo`, the event changes
   * nothing (the server's own view of the cancel); `late-outcome`, it is kept once as the call's
   * `lateOutcome` (cancellation cannot undo a committed effect, docs/protocol.md, "Rules of the stream").
   */
  readonly afterLocalCancel: 'echo' | 'late-outcome';
  /**
   * The reducer's step: the next call object. For `start`, `call` is the call already shown from
   * legacy previews, if any; for the others, the call, in a status `moves` allows, and `status`
   * is where `moves` takes it.
   */
  readonly apply: (
    call: P extends 'start' ? CallRecord | undefined : CallRecord,
    event: PhaseEvent<P>,
    context: { now: number | undefined; status: ToolCallStatus },
  ) => PhaseStep;
}

const OPEN: Partial<Record<ToolCallStatus, ToolCallStatus>> = {};

/**
 * The spec of every phase. TypeScript holds it to `TOOL_STREAM_PHASES` and to each event's
 * fields: a phase or a field without its entry does not compile.
 *
 * @example
 * for (const key of Object.keys(TOOL_PHASES.settled.fields)) console.log(key); // ok, code, message, output
 */
export const TOOL_PHASES: { readonly [P in ToolStreamPhase]: PhaseSpec<P> } = {
  start: {
    fields: {
      turnId: rules.string,
      name: rules.id,
      location: rules.optional(rules.oneOf(['server', 'app'])),
      risk: rules.optional(rules.oneOf(['low', 'medium', 'high'])),
      parentCallId: rules.optional(rules.id),
    },
    refine: (e) => (e.parentCallId === e.callId ? 'parentCallId names the call itself' : undefined),
    moves: OPEN,
    afterLocalCancel: 'echo',
    apply: (shown, e, { now }) => {
      const call = createToolCall({
        callId: e.callId,
        name: e.name,
        turnId: e.turnId,
        status: 'pending',
        source: 'stream',
        location: e.location,
        risk: e.risk,
        parentCallId: e.parentCallId,
        startedAt: now,
      });
      if (shown === undefined || shown.status !== 'cancelled') return { call };
      // A preview call the user already cancelled here (previews end only so): the stream takes it
      // over still cancelled, with what was shown, so the server's later events are echoes and a
      // settled becomes its lateOutcome. Terminal statuses are sticky (docs/protocol.md, "Rules of the stream").
      const taken = settleArguments(resetArguments(call, shown.argumentsText, {}), {
        status: 'cancelled',
        cancelledBy: 'local',
        startedAt: shown.startedAt,
        endedAt: shown.endedAt,
      });
      return { call: taken };
    },
  },
  'arguments-delta': {
    fields: { delta: rules.string },
    moves: { pending: 'streaming', streaming: 'streaming' },
    afterLocalCancel: 'echo',
    apply: (call, e, { status }) => {
      const next = appendArguments(call, e.delta, { status });
      return { call: next, ...textWarning(call, next) };
    },
  },
  'arguments-complete': {
    fields: { arguments: rules.present },
    moves: { pending: 'issued', streaming: 'issued' },
    afterLocalCancel: 'echo',
    apply: completeArguments,
  },
  progress: {
    fields: { progress: rules.optional(rules.json), output: rules.optional(rules.json) },
    moves: { issued: 'issued' },
    afterLocalCancel: 'echo',
    apply: (call, e) => {
      const changes: { -readonly [K in keyof ToolCallFields]?: ToolCallFields[K] } = {};
      if (e.progress !== undefined) changes.progress = e.progress;
      if (e.output !== undefined) {
        // A preliminary result replaces the last one (docs/protocol.md, "Rules of the stream").
        changes.output = e.output as JsonValue;
        changes.outputPreliminary = true;
      }
      return { call: updateToolCall(call, changes) };
    },
  },
  settled: {
    fields: {
      ok: rules.boolean,
      code: rules.optional(rules.string),
      message: rules.optional(rules.string),
      output: rules.optional(rules.json),
      answeredBy: rules.optional(rules.oneOf(['person'])),
    },
    moves: { issued: 'settled' },
    afterLocalCancel: 'late-outcome',
    apply: (call, e, { now, status }) => {
      if (call.cancelledBy === 'local') {
        const late: LateOutcome = { ok: e.ok, code: e.code, at: now };
        if (e.message !== undefined) late.message = e.message;
        if (e.output !== undefined) late.output = e.output as JsonValue;
        return { call: updateToolCall(call, { lateOutcome: Object.freeze(late) }) };
      }
      const changes: { -readonly [K in keyof ToolCallFields]?: ToolCallFields[K] } = { status, ok: e.ok, code: e.code, endedAt: now };
      if (e.message !== undefined) changes.message = e.message;
      if (e.output !== undefined) {
        changes.output = e.output as JsonValue;
        changes.outputPreliminary = false;
      }
      if (e.answeredBy === 'person') changes.answeredBy = 'person';
      return { call: updateToolCall(call, changes) };
    },
  },
  cancelled: {
    fields: {},
    moves: { pending: 'cancelled', streaming: 'cancelled', issued: 'cancelled' },
    afterLocalCancel: 'echo',
    apply: (call, _e, { now, status }) => ({ call: settleArguments(call, { status, cancelledBy: 'server', endedAt: now }) }),
  },
  failed: {
    fields: { message: rules.string },
    moves: { pending: 'failed', streaming: 'failed' },
    afterLocalCancel: 'echo',
    apply: (call, e, { now, status }) => ({ call: settleArguments(call, { status, message: e.message, endedAt: now }) }),
  },
};

/** Whether `phase` is a phase the kit knows (an own key of the specs, never an inherited one). */
export function isToolStreamPhase(phase: unknown): phase is ToolStreamPhase {
  return typeof phase === 'string' && Object.prototype.hasOwnProperty.call(TOOL_PHASES, phase);
}

/* ---------------------------------------------------------- the hard steps */

/** A warning the moment a call's argument text first turns out not to be JSON, or first repeats a key. */
export function textWarning(before: CallRecord | undefined, after: CallRecord): Pick<PhaseStep, 'warning'> {
  if (after.argumentsError !== undefined && after.argumentsError !== before?.argumentsError) {
    return { warning: { code: 'invalid-arguments', reason: `call '${after.callId}': the argument text is not valid JSON: ${after.argumentsError}` } };
  }
  if (after.duplicateKeyPath !== undefined && before?.duplicateKeyPath === undefined) {
    return { warning: { code: 'duplicate-key', reason: duplicateReason(after.callId, after.duplicateKeyPath) } };
  }
  return {};
}

const duplicateReason = (callId: string, path: readonly (string | number)[]) =>
  `call '${callId}': the argument text writes the key ${formatJsonPath(path, '(the arguments)')} twice; the last value counts, not the one shown first`;

/**
 * `arguments-complete`: the final value (a JSON value, or JSON text as a string), compared with
 * the streamed text. A final value that disagrees is kept, marked and reported (docs/protocol.md, "Rules of the stream").
 */
function completeArguments(call: CallRecord, e: PhaseEvent<'arguments-complete'>, { now, status }: { now: number | undefined; status: ToolCallStatus }): PhaseStep {
  const final = finalArguments(e.arguments);
  if (!final.ok) {
    return {
      call: settleArguments(call, { status, issuedAt: now, argumentsError: final.reason }),
      warning: { code: 'invalid-arguments', reason: `call '${call.callId}': ${final.reason}` },
    };
  }
  const text = call.argumentsText;
  const agreement =
    text === '' ? { agrees: true as const } : compareWithStream(text, call.partialArguments, argumentsAreComplete(call), call.argumentsError, final.value);
  const duplicateKeyPath = call.duplicateKeyPath ?? final.duplicateKeyPath;
  const next = settleArguments(call, {
    status,
    issuedAt: now,
    arguments: final.value,
    argumentsError: undefined,
    argumentsMismatch: agreement.agrees ? undefined : true,
    duplicateKeyPath,
  });
  if (!agreement.agrees) return { call: next, warning: { code: 'arguments-mismatch', reason: `call '${call.callId}': ${agreement.reason}` } };
  if (duplicateKeyPath !== undefined && call.duplicateKeyPath === undefined) {
    return { call: next, warning: { code: 'duplicate-key', reason: duplicateReason(call.callId, duplicateKeyPath) } };
  }
  return { call: next };
}

type Final = { ok: true; value: JsonValue; duplicateKeyPath: readonly (string | number)[] | undefined } | { ok: false; reason: string };

/** The final value of `arguments-complete`: a JSON value, or JSON text as a string. */
function finalArguments(value: unknown): Final {
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      return { ok: false, reason: `the final arguments are not valid JSON: ${(error as Error).message}` };
    }
    const snapshot = snapshotJson(parsed);
    return snapshot.ok ? { ...snapshot, duplicateKeyPath: duplicateKeyIn(value) } : snapshot;
  }
  const snapshot = snapshotJson(value);
  return snapshot.ok ? { ...snapshot, duplicateKeyPath: undefined } : snapshot;
}
