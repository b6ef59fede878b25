// @vitest-environment node
/**
 * Properties of the reducer over random event sequences (issue 8, item 1; docs/protocol.md, "Rules of the stream",
 * "Legacy previews", "Purity, the parser and snapshots").
 *
 * A sequence is built from a few calls, each with a lifecycle (settled, cancelled, failed, sent
 * without streaming, left open), its argument text cut at random places, interleaved with the
 * other calls, optionally numbered with `seq`, optionally accompanied by legacy previews (or made
 * of previews only), then damaged: events swapped, repeated, dropped, the tail cut off, garbage
 * and hostile values inserted, `closed` inserted, a window replayed as after a resume, local
 * interrupts inserted. Every step is checked against what the reducer promises; then the whole
 * sequence is reduced again from scratch and from an older state, and through the store.
 *
 * Fixed seeds (docs/architecture.md, "Conventions"); fast-check prints the seed and the counterexample path
 * on failure, and so does the message of each check below.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolStreamStore, type ToolCall, type ToolStreamState } from 'toolgate/core';
import { explainToolEvent, initialToolStreamState, type LocalToolEvent, type ToolEventVerdict } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { stepLocalToolEvent, stepToolEvent } from '../../src/core/stream/reducer';
import type { PreviewMode } from '../../src/core/stream/legacy-preview';
import { isConsistentPreview } from '../core/preview-consistency';

const SEED = 0x5eed_0001;
const RUNS = 10_000;

/* ------------------------------------------------------------------ generation */

// Ids that reach for Object.prototype must stay ordinary keys.
const CALL_IDS = ['c1', 'c2', 'c3', '__proto__', 'constructor', 'toString'] as const;
const TURNS = ['t1', 't2', 't3'] as const;

type Ending = 'settled' | 'cancelled' | 'failed' | 'no-stream' | 'open' | 'cancelled-mid-stream';

interface CallPlan {
  id: string;
  turn: string;
  args: unknown;
  cuts: number[];
  ending: Ending;
  ok: boolean;
  progress: number;
  /** Legacy previews for this call: none, alongside its stream (a tool-stream-v1 server), or only previews. */
  previews: 'none' | 'alongside' | 'only';
  /** Only previews: the last one carries the parsed value instead of text. */
  parsedLast: boolean;
}

// Argument texts chosen to be hard for an incremental parser; a few random values besides.
const ARGUMENT_TEXTS = [
  '{}',
  '[]',
  'null',
  '0',
  '-0.0e+0',
  '"a plain string"',
  '{"q":"cats","days":[1,2,3],"deep":{"a":{"b":[true,false,null]}}}',
  '{"__proto__":{"isAdmin":true},"x":1}',
  '{"constructor":{"prototype":{"polluted":1}},"toString":"no"}',
  '{"text":"line\\nbreak \\"quoted\\" \\\\ back \\u0000 \\t ctrl \\/ slash"}',
  '{"emoji":"😀👍🏽 ok","accents":"éüñ","escaped":"\\ud83d\\ude00"}',
  '{"lone":"\\ud800x","other":"\\udc00"}',
  '[[[[[[[[[[{"leaf":[1,[2,[3]]]}]]]]]]]]]]',
  '{"n":-12.5e-3,"m":1E+2,"big":123456789012345678901234567890,"t":true,"f":false}',
  '{ "spaced" :  [ 1 ,  2 ] ,\n "tabs":\t"x" }',
  '{"a b":"c","":"","\\u2028":"\\u2029"}',
  `{"long":"${'lorem ipsum '.repeat(30)}"}`,
  `[${Array.from({ length: 40 }, (_, i) => i * 7).join(',')}]`,
  '{"path":"/tmp/a","content":"<script>alert(1)</script>","mode":"0644"}',
  '12.75',
  'true',
];

const argumentValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.nat(ARGUMENT_TEXTS.length - 1).map((i) => JSON.parse(ARGUMENT_TEXTS[i] as string) as unknown) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  // Any UTF-16 code units, lone surrogates included, cut anywhere.
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((text) => ({ text })) },
);

const callPlan = (id: string): fc.Arbitrary<CallPlan> =>
  fc.record({
    id: fc.constant(id),
    turn: fc.constantFrom(...TURNS),
    args: argumentValue,
    cuts: fc.array(fc.nat(200), { maxLength: 8 }),
    ending: fc.constantFrom<Ending>('settled', 'settled', 'settled', 'cancelled', 'failed', 'no-stream', 'open', 'cancelled-mid-stream'),
    ok: fc.boolean(),
    progress: fc.nat(2),
    previews: fc.constantFrom<CallPlan['previews']>('none', 'none', 'alongside', 'only'),
    parsedLast: fc.boolean(),
  });

const calls: fc.Arbitrary<CallPlan[]> = fc
  .shuffledSubarray([...CALL_IDS], { minLength: 1, maxLength: 4 })
  .chain((ids) => fc.tuple(...ids.map(callPlan)));

/** Values straight off a wire: JSON, often almost an event (made for a call id and a seq). */
const GARBAGE: readonly ((callId: string, seq: number) => unknown)[] = [
  () => null,
  () => 'tool.stream',
  () => 42,
  () => [{ type: 'closed' }],
  () => ({}),
  () => ({ type: 7 }),
  () => ({ type: 'message.delta', text: 'hi' }),
  () => ({ type: 'TOOL.STREAM', phase: 'start' }),
  (callId) => ({ type: 'tool.stream', phase: 'rewind', callId }),
  () => ({ type: 'tool.stream', phase: 'cancelled' }),
  () => ({ type: 'tool.stream', phase: 'cancelled', callId: '' }),
  () => ({ type: 'tool.stream', phase: 'cancelled', callId: ['c1'] }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-delta', callId, delta: 42 }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-delta', callId, delta: null }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-delta', callId, delta: '}' }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-delta', callId, delta: '' }),
  (callId) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't1' }),
  (callId) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't1', name: 'x', risk: 'extreme' }),
  (callId) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't2', name: 'again', location: 'moon' }),
  (callId) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't2', name: 'again' }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-complete', callId }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: '{"not": json' }),
  (callId) => ({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: { other: 'value' } }),
  (callId) => ({ type: 'tool.stream', phase: 'progress', callId, progress: '<b>html</b>' }),
  (callId) => ({ type: 'tool.stream', phase: 'settled', callId }),
  (callId) => ({ type: 'tool.stream', phase: 'settled', callId, ok: 'yes' }),
  (callId) => ({ type: 'tool.stream', phase: 'settled', callId, ok: true, code: 5 }),
  (callId) => ({ type: 'tool.stream', phase: 'settled', callId, ok: true }),
  (callId) => ({ type: 'tool.stream', phase: 'cancelled', callId }),
  (callId) => ({ type: 'tool.stream', phase: 'failed', callId }),
  (callId) => ({ type: 'tool.stream', phase: 'failed', callId, message: 'stopped' }),
  (callId, seq) => ({ type: 'tool.stream', phase: 'cancelled', callId, seq }),
  (callId) => ({ type: 'tool.stream', phase: 'cancelled', callId, seq: '3' }),
  (callId) => ({ type: 'tool.stream', phase: 'cancelled', callId, seq: null }),
  (callId) => ({ type: 'tool.stream', phase: 'cancelled', callId, seq: 1e308 }),
  (callId) => ({ type: 'tool.preview', callId }),
  (callId) => ({ type: 'tool.preview', callId, arguments: '{"q": "x' }),
  (callId) => ({ type: 'tool.preview', callId, arguments: { q: 'parsed' }, name: 7 }),
  (callId) => ({ type: 'tool.preview', callId, arguments: '}{', turnId: 't1' }),
  (_callId, seq) => ({ type: 'closed', seq }),
  () => ({ type: 'toolgate.interrupt', turnId: 5 }),
  () => ({ type: 'toolgate.interrupt', turnId: 'nobody' }),
];

const garbage = fc.record({ which: fc.nat(GARBAGE.length - 1), callId: fc.constantFrom(...CALL_IDS, 'ghost'), seq: fc.integer({ min: -3, max: 60 }) });

/** Values no wire gives, which a caller might still pass: they must not crash the reducer either. */
const HOSTILE: readonly (() => unknown)[] = [
  () => undefined,
  () => Symbol('event'),
  () => 10n,
  () => () => ({ type: 'closed' }),
  () => ({ get type(): string { throw new Error('a getter that throws'); } }),
  () => new Proxy({}, { get: () => { throw new Error('a proxy that throws'); }, has: () => { throw new Error('a proxy that throws'); }, getOwnPropertyDescriptor: () => { throw new Error('a proxy that throws'); } }),
  () => Object.assign(Object.create(null) as object, { type: 'tool.stream', phase: 'cancelled', callId: 'c1' }),
  () => Object.freeze({ type: 'tool.stream', phase: 'arguments-delta', callId: 'c2', delta: '{' }),
  () => ({ type: 'tool.stream', phase: 'arguments-complete', callId: 'c1', arguments: { toJSON: () => ({}) } }),
  () => ({ type: 'tool.stream', phase: 'progress', callId: 'c1', progress: { then: () => { throw new Error('not a promise'); } } }),
  () => ({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true, seq: Number.NaN }),
];

type Damage =
  | { kind: 'swap'; at: number }
  | { kind: 'repeat'; from: number; to: number }
  | { kind: 'drop'; at: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'garbage'; at: number; value: { which: number; callId: string; seq: number } }
  | { kind: 'hostile'; at: number; which: number }
  | { kind: 'close'; at: number }
  | { kind: 'replay'; from: number; length: number; at: number }
  | { kind: 'interrupt'; at: number; turn: string | undefined };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('repeat' as const), from: fc.nat(), to: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('garbage' as const), at: fc.nat(), value: garbage }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hostile' as const), at: fc.nat(), which: fc.nat(HOSTILE.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replay' as const), from: fc.nat(), length: fc.integer({ min: 1, max: 12 }), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('interrupt' as const), at: fc.nat(), turn: fc.option(fc.constantFrom(...TURNS), { nil: undefined }) }) },
);

const scenario = fc.record({
  calls,
  /** Which call speaks next, for interleaving. */
  picks: fc.array(fc.nat(3), { maxLength: 80 }),
  mode: fc.constantFrom<PreviewMode>('auto', 'auto', 'auto', 'stream', 'preview'),
  seq: fc.constantFrom('none', 'all', 'all', 'some'),
  damage: fc.array(damage, { maxLength: 6 }),
  /** The older state that is reduced again, as a fraction of the sequence. */
  purityAt: fc.double({ min: 0, max: 1, noNaN: true }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/** Cut `text` at the given offsets (sorted, deduplicated, inside the text). */
function cut(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => (text.length === 0 ? 0 : c % text.length)))].filter((c) => c > 0).sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

type Ev = Record<string, unknown>;

/** The events of one call, in its own order. */
function eventsOf(plan: CallPlan): Ev[] {
  const { id, turn } = plan;
  const text = JSON.stringify(plan.args);
  const pieces = cut(text, plan.cuts);
  if (plan.previews === 'only') {
    const out: Ev[] = [];
    let sofar = '';
    pieces.forEach((piece, i) => {
      sofar += piece;
      const last = i === pieces.length - 1;
      out.push({ type: 'tool.preview', callId: id, name: 'legacy', turnId: turn, arguments: last && plan.parsedLast ? plan.args : sofar });
    });
    return out;
  }
  const out: Ev[] = [{ type: 'tool.stream', phase: 'start', callId: id, turnId: turn, name: `tool_${id}`, location: 'server', risk: 'low' }];
  let sofar = '';
  const delta = (piece: string) => {
    out.push({ type: 'tool.stream', phase: 'arguments-delta', callId: id, delta: piece });
    sofar += piece;
    if (plan.previews === 'alongside') out.push({ type: 'tool.preview', callId: id, name: `tool_${id}`, turnId: turn, arguments: sofar });
  };
  switch (plan.ending) {
    case 'failed':
      pieces.slice(0, Math.max(0, pieces.length - 1)).forEach(delta);
      out.push({ type: 'tool.stream', phase: 'failed', callId: id, message: 'max_tokens' });
      return out;
    case 'cancelled-mid-stream':
      pieces.slice(0, Math.max(0, pieces.length - 1)).forEach(delta);
      out.push({ type: 'tool.stream', phase: 'cancelled', callId: id });
      return out;
    case 'no-stream':
      break;
    default:
      pieces.forEach(delta);
  }
  out.push({ type: 'tool.stream', phase: 'arguments-complete', callId: id, arguments: plan.args });
  for (let i = 0; i < plan.progress; i++) out.push({ type: 'tool.stream', phase: 'progress', callId: id, progress: { step: i } });
  if (plan.ending === 'cancelled') out.push({ type: 'tool.stream', phase: 'cancelled', callId: id });
  else if (plan.ending !== 'open') out.push({ type: 'tool.stream', phase: 'settled', callId: id, ok: plan.ok, ...(plan.ok ? {} : { code: 'FAILED' }) });
  return out;
}

/** Interleave the calls' events, keeping each call's own order. */
function interleave(lists: Ev[][], picks: readonly number[]): Ev[] {
  const queues = lists.map((list) => [...list]);
  const out: Ev[] = [];
  let p = 0;
  for (;;) {
    const open = queues.filter((q) => q.length > 0);
    if (open.length === 0) return out;
    const pick = picks.length === 0 ? 0 : (picks[p++ % picks.length] as number);
    out.push((open[pick % open.length] as Ev[]).shift() as Ev);
  }
}

/** The whole damaged sequence of a scenario. */
function build(s: Scenario): unknown[] {
  let events: unknown[] = interleave(s.calls.map(eventsOf), s.picks);
  // Number the events as a server does, before the damage: a repeat keeps its seq.
  if (s.seq !== 'none') {
    let seq = 0;
    events = events.map((e, i) => (s.seq === 'all' || i % 3 !== 1 ? { ...(e as Ev), seq: ++seq } : e));
  }
  for (const d of s.damage) {
    const n = events.length;
    const at = (k: number) => (n === 0 ? 0 : k % (n + 1));
    switch (d.kind) {
      case 'swap':
        if (n >= 2) {
          const i = d.at % (n - 1);
          [events[i], events[i + 1]] = [events[i + 1], events[i]];
        }
        break;
      case 'repeat':
        if (n > 0) events.splice(at(d.to), 0, events[d.from % n]);
        break;
      case 'drop':
        if (n > 0) events.splice(d.at % n, 1);
        break;
      case 'truncate':
        events = events.slice(0, at(d.at));
        break;
      case 'garbage':
        events.splice(at(d.at), 0, (GARBAGE[d.value.which] as (callId: string, seq: number) => unknown)(d.value.callId, d.value.seq));
        break;
      case 'hostile':
        events.splice(at(d.at), 0, { hostile: d.which });
        break;
      case 'close':
        events.splice(at(d.at), 0, s.seq === 'none' ? { type: 'closed' } : { type: 'closed', seq: 10_000 });
        break;
      case 'replay': {
        // A resume that replays a window the client had already seen.
        if (n === 0) break;
        const from = d.from % n;
        const window = events.slice(from, from + d.length);
        events.splice(Math.max(at(d.at), from + window.length), 0, ...window);
        break;
      }
      case 'interrupt':
        // The page's own interrupt: a local event, which the driver applies through the local path.
        events.splice(at(d.at), 0, { local: d.turn === undefined ? { type: 'interrupt' } : { type: 'interrupt', turnId: d.turn } });
        break;
    }
  }
  // Hostile values are made fresh here so that fast-check's copy of the scenario stays plain data.
  return events.map((e) => (typeof e === 'object' && e !== null && 'hostile' in e && Object.keys(e).length === 1 ? (HOSTILE[(e as { hostile: number }).hostile] as () => unknown)() : e));
}

/* -------------------------------------------------------------------- checking */

const STATUS_RANK = { pending: 0, streaming: 1, issued: 2, settled: 3, cancelled: 3, failed: 3 } as const;
const TERMINAL = new Set(['settled', 'cancelled', 'failed']);

/** Everything a state shows, as text (previews and argument text included). */
function show(state: ToolStreamState): string {
  return JSON.stringify({
    closed: state.closed,
    lastSeq: state.lastSeq,
    speaksStream: state.speaksStream,
    previewMode: state.previewMode,
    order: state.order,
    calls: state.order.map((id) => showCall(callOf(state, id) as ToolCall)),
  });
}

function showCall(c: ToolCall): unknown[] {
  return [
    c.callId, c.name, c.turnId, c.status, c.source, c.location, c.risk, c.arguments, c.argumentsError, c.progress, c.ok, c.code,
    c.message, c.cancelledBy, c.lateOutcome, c.startedAt, c.issuedAt, c.endedAt, c.argumentsText, c.partialArguments, c.writingPath,
  ];
}

const isJsonShaped = (e: unknown): boolean => {
  if (e === null || ['string', 'number', 'boolean'].includes(typeof e)) return true;
  if (typeof e !== 'object') return false;
  const proto = Object.getPrototypeOf(e) as unknown;
  if (proto !== Object.prototype && proto !== Array.prototype) return false;
  try {
    return JSON.stringify(e) !== undefined && !Object.values(e as object).some((v) => typeof v === 'function');
  } catch {
    return false;
  }
};

function parseOrUndefined(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

interface Tally {
  applied: number;
  ignored: number;
  rejected: number;
  terminal: number;
  previewChecks: number;
  lateOutcomes: number;
  closedRuns: number;
  previewCalls: number;
}

interface Track {
  source: 'stream' | 'preview';
  fragments: string[];
  previews: unknown[];
  terminal: string | undefined;
  status: string;
}

/** One pass over `events`, checking every step. Returns every state. */
function check(events: unknown[], mode: PreviewMode, tally: Tally, fail: (why: string) => never): { states: ToolStreamState[]; verdicts: ToolEventVerdict[] } {
  let state = initialToolStreamState({ previewMode: mode });
  const states = [state];
  const verdicts: ToolEventVerdict[] = [];
  const track = new Map<string, Track>();

  events.forEach((event, i) => {
    const before = state;
    let step: ReturnType<typeof stepToolEvent<ToolStreamState>>;
    try {
      step = stepAny(before, event, { now: i + 1 });
    } catch (error) {
      fail(`event ${i} threw: ${String(error)}`);
    }
    const { verdict } = step;
    verdicts.push(verdict);
    const after = step.state;
    tally[verdict.outcome] += 1;

    // Never throws, not even inside (the defensive catch must not be what saves a wire event).
    if (verdict.outcome === 'rejected' && verdict.reason.startsWith('the event could not be reduced') && isJsonShaped(event)) {
      fail(`event ${i} made the reducer throw inside: ${verdict.reason}`);
    }
    // Ignored and rejected events return the very same state; an applied one a new state.
    if (verdict.outcome !== 'applied' && after !== before) fail(`event ${i} was ${verdict.outcome} but the state changed`);
    if (verdict.outcome === 'applied' && after === before) fail(`event ${i} was applied but the state is the same object`);
    if (!isLocalInterrupt(event)) {
      const explained = explainToolEvent(before, event);
      if (explained.outcome !== verdict.outcome) fail(`event ${i}: explainToolEvent says ${explained.outcome}, the reducer ${verdict.outcome}`);
    }

    // After closed: empty, and it stays so.
    if (before.closed && after !== before) fail(`event ${i} changed a closed session`);
    if (after.closed && (after.order.length !== 0 || Object.keys(after.calls).length !== 0)) fail(`event ${i}: a closed session still holds calls`);

    // Each id once in order, and order is exactly the calls.
    const ids = Object.keys(after.calls);
    if (new Set(after.order).size !== after.order.length) fail(`event ${i}: a call is shown twice in order`);
    if (ids.length !== after.order.length || !after.order.every((id) => Object.prototype.hasOwnProperty.call(after.calls, id))) {
      fail(`event ${i}: order and calls disagree`);
    }

    const e = (typeof event === 'object' && event !== null ? event : {}) as Ev;
    if (verdict.outcome === 'applied' && e.type === 'closed') {
      tally.closedRuns += 1;
      track.clear();
    }
    if (verdict.outcome === 'applied' && e.type === 'tool.stream' && e.phase === 'start') {
      // A new line of call objects: a stream call, or the stream taking over a preview call.
      const previous = track.get(e.callId as string);
      if (previous?.terminal !== undefined) {
        // A preview call cancelled here stays cancelled, with the text it showed (terminal is sticky).
        const shown = callOf(before, e.callId as string) as ToolCall;
        track.set(e.callId as string, { source: 'stream', fragments: [shown.argumentsText], previews: [], terminal: previous.terminal, status: previous.terminal });
      } else {
        track.set(e.callId as string, { source: 'stream', fragments: [], previews: [], terminal: undefined, status: 'pending' });
      }
    }
    if (verdict.outcome === 'applied' && e.type === 'tool.stream' && e.phase === 'arguments-delta') {
      track.get(e.callId as string)?.fragments.push(e.delta as string);
    }

    for (const id of after.order) {
      const call = callOf(after, id) as ToolCall;
      let t = track.get(id);
      if (t === undefined) {
        if (call.source !== 'preview') fail(`event ${i}: stream call '${id}' appeared without an applied start`);
        t = { source: 'preview', fragments: [], previews: [], terminal: undefined, status: call.status };
        track.set(id, t);
        tally.previewCalls += 1;
      }
      if (call.source !== t.source) fail(`event ${i}: call '${id}' changed source from ${t.source} to ${call.source} without a start`);
      // One terminal status, kept.
      if (t.terminal !== undefined && call.status !== t.terminal) fail(`event ${i}: call '${id}' went from ${t.terminal} to ${call.status}`);
      // A stream call only moves forward. (A preview call may go back from issued to streaming:
      // a preview whose text does not extend the previous one resets it, docs/protocol.md, "Legacy previews".)
      if (call.source === 'stream' && STATUS_RANK[call.status] < STATUS_RANK[t.status as keyof typeof STATUS_RANK]) fail(`event ${i}: call '${id}' went back from ${t.status} to ${call.status}`);
      if (TERMINAL.has(call.status) && t.terminal === undefined) {
        t.terminal = call.status;
        tally.terminal += 1;
      }
      t.status = call.status;
      if (call.lateOutcome !== undefined && call.status !== 'cancelled') fail(`event ${i}: call '${id}' has a late outcome but is ${call.status}`);
      if (call === callOf(before, id)) continue; // unchanged: already checked

      if (call.source === 'stream') {
        // The text is exactly the accepted fragments, in order.
        const expected = t.fragments.join('');
        if (call.argumentsText !== expected) fail(`event ${i}: call '${id}' shows text ${JSON.stringify(call.argumentsText)}, fragments make ${JSON.stringify(expected)}`);
        if (call.status === 'streaming' || call.status === 'pending') t.previews.push(call.partialArguments);
      }
      const previousCall = callOf(before, id);
      const completing = previousCall !== undefined && previousCall.arguments === undefined && call.arguments !== undefined;
      if (completing) {
        // A preview never contradicts the final arguments (when the fragments were those arguments' text).
        if (call.partialArguments !== call.arguments) fail(`event ${i}: call '${id}' shows a preview other than its final arguments`);
        const parsed = parseOrUndefined(call.argumentsText);
        if (parsed.ok && isDeepStrictEqual(parsed.value, call.arguments)) {
          for (const preview of t.previews) {
            tally.previewChecks += 1;
            if (!isConsistentPreview(preview, call.arguments)) {
              fail(`event ${i}: call '${id}' showed preview ${JSON.stringify(preview)}, which contradicts ${JSON.stringify(call.arguments)}`);
            }
          }
        }
        if (call.source === 'preview' && !(parsed.ok && JSON.stringify(parsed.value) === JSON.stringify(call.arguments))) {
          fail(`event ${i}: preview call '${id}' was issued with arguments that are not its text`);
        }
      }
      if (call.lateOutcome !== undefined && previousCall?.lateOutcome === undefined) tally.lateOutcomes += 1;
    }
    state = after;
    states.push(state);
  });
  return { states, verdicts };
}

const emptyTally = (): Tally => ({ applied: 0, ignored: 0, rejected: 0, terminal: 0, previewChecks: 0, lateOutcomes: 0, closedRuns: 0, previewCalls: 0 });

/* ---------------------------------------------------------------------- tests */

describe('the reducer over random event sequences', () => {
  it(`keeps its promises over ${RUNS.toLocaleString('en')} random, damaged sequences (seed ${SEED})`, () => {
    const tally = emptyTally();
    let storeEvents = 0;
    const cpu = process.cpuUsage();
    fc.assert(
      fc.property(scenario, (s) => {
        const events = build(s);
        const fail = (why: string): never => {
          throw new Error(`${why}\n(seed ${SEED}; events: ${safeJson(events)})`);
        };

        // 1. Step by step.
        const { states, verdicts } = check(events, s.mode, tally, fail);
        const last = states[states.length - 1] as ToolStreamState;
        const k = Math.min(events.length, Math.floor(s.purityAt * (events.length + 1)));
        const older = states[k] as ToolStreamState;
        const olderShown = show(older);
        const lastShown = show(last);

        // 2. The store, fed the same events from scratch: it notifies exactly for applied events and
        // reports exactly the rejected ones (and argument text that is not JSON); it ends where the
        // reducer ended; and the state it held at step k, read only now (its previews built lazily,
        // after the line of call objects grew), shows what that state showed when it was made.
        let now = 0;
        const reports: string[] = [];
        const store = createToolStreamStore({ previewMode: s.mode, now: () => now, onError: (reason) => reports.push(reason) });
        let notified = 0;
        store.subscribe(() => (notified += 1));
        let storeOlder: ToolStreamState = store.getState();
        events.forEach((event, i) => {
          now = i + 1;
          // The store walks the same states as the reducer did above, so it meets the same verdicts.
          const verdict = verdicts[i] as ToolEventVerdict;
          const before = store.getState();
          const notifiedBefore = notified;
          const reportsBefore = reports.length;
          if (isLocalInterrupt(event)) store.getState().interrupt((event as { local: { turnId?: string } }).local.turnId);
          else store.getState().dispatch(event);
          const changed = store.getState() !== before;
          const notifications = notified - notifiedBefore;
          if (notifications !== (verdict.outcome === 'applied' ? 1 : 0) || changed !== (verdict.outcome === 'applied')) {
            fail(`store: event ${i} was ${verdict.outcome} and notified ${notifications} time(s)`);
          }
          const reported = reports.length - reportsBefore;
          const expected = verdict.outcome === 'rejected' || (verdict.outcome === 'applied' && verdict.warning !== undefined) ? 1 : 0;
          if (reported !== expected) fail(`store: event ${i} (${verdict.outcome}) was reported ${reported} time(s)`);
          if (i + 1 === k) storeOlder = store.getState();
          storeEvents += 1;
        });
        if (show(store.getState()) !== lastShown) fail('the store, fed the same events, ended in another state than the reducer');
        if (show(storeOlder) !== olderShown) fail(`state ${k}, read late, shows something else than when it was made`);

        // 3. Purity: reducing an older state again gives what it gave the first time, and changes it not.
        let again = older;
        for (let i = k; i < events.length; i++) again = stepAny(again, events[i], { now: i + 1 }).state;
        if (show(again) !== lastShown) fail(`reducing state ${k} again gave another result`);
        if (show(older) !== olderShown) fail(`state ${k} changed after it was reduced again`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    const used = process.cpuUsage(cpu);
    console.log(`reducer property: ${RUNS} sequences, ${storeEvents} events, ${tally.applied} applied, ${tally.rejected} rejected, ${tally.ignored} ignored, ${tally.previewChecks} previews compared with final arguments, ${tally.terminal} calls ended, ${tally.lateOutcomes} late outcomes, ${tally.closedRuns} closes, ${tally.previewCalls} calls built from previews; ${((used.user + used.system) / 1e6).toFixed(1)} s of CPU`);
    // Not vacuous: every kind of verdict happened, calls ended, previews were compared with finals.
    expect(tally.applied).toBeGreaterThan(RUNS * 5);
    expect(tally.rejected).toBeGreaterThan(RUNS);
    expect(tally.ignored).toBeGreaterThan(RUNS / 10);
    expect(tally.terminal).toBeGreaterThan(RUNS / 2);
    expect(tally.previewChecks).toBeGreaterThan(RUNS * 2);
    expect(tally.lateOutcomes).toBeGreaterThan(10);
    expect(tally.closedRuns).toBeGreaterThan(RUNS / 20);
    expect(tally.previewCalls).toBeGreaterThan(RUNS / 20);
    expect(storeEvents).toBeGreaterThan(RUNS * 10);
    expect(tally.applied + tally.rejected + tally.ignored).toBe(storeEvents);
  }, 120_000);
});

describe('the reducer with arguments of extreme shape', () => {
  // Deep nesting, huge strings and wide arrays, cut into fragments anywhere: the reducer still
  // never throws (not even inside its guard), shows exactly the fragments, and the call still ends.
  const shape = fc.oneof(
    fc.record({ kind: fc.constant('deep' as const), size: fc.integer({ min: 1_000, max: 40_000 }) }),
    fc.record({ kind: fc.constant('huge' as const), size: fc.integer({ min: 10_000, max: 400_000 }) }),
    fc.record({ kind: fc.constant('wide' as const), size: fc.integer({ min: 1_000, max: 30_000 }) }),
  );
  const textOf = ({ kind, size }: { kind: 'deep' | 'huge' | 'wide'; size: number }): string => {
    if (kind === 'deep') return `${'[{"n":'.repeat(size)}0${'}]'.repeat(size)}`;
    if (kind === 'huge') return JSON.stringify({ text: 'quoted "text" \\ with escapes, ünïcødé and 😀 '.repeat(Math.ceil(size / 44)).slice(0, size) });
    return `[${Array.from({ length: size }, (_, i) => i).join(',')}]`;
  };

  it('never throws, keeps the fragments and ends the call, for nesting 40,000 deep, 400 kB strings and 30,000-item arrays', () => {
    let deepest = 0;
    fc.assert(
      fc.property(shape, fc.integer({ min: 1, max: 20_000 }), fc.boolean(), fc.boolean(), (s, chunk, asText, readPreviews) => {
        const text = textOf(s);
        const events: unknown[] = [{ type: 'tool.stream', phase: 'start', callId: 'big', turnId: 't1', name: 'write' }];
        // At most about 2,000 fragments: the bench, not this test, measures the cost per fragment.
        const step = Math.max(chunk, Math.ceil(text.length / 2_000));
        for (let i = 0; i < text.length; i += step) events.push({ type: 'tool.stream', phase: 'arguments-delta', callId: 'big', delta: text.slice(i, i + step) });
        events.push({ type: 'tool.stream', phase: 'arguments-complete', callId: 'big', arguments: asText ? text : JSON.parse(text) });
        events.push({ type: 'tool.stream', phase: 'settled', callId: 'big', ok: true });
        let state = initialToolStreamState();
        for (const [i, event] of events.entries()) {
          const { state: next, verdict } = stepToolEvent(state, event, { now: i });
          if (verdict.outcome !== 'applied') expect.fail(`event ${i} of a ${s.kind} text of ${s.size}: ${JSON.stringify(verdict)}`);
          state = next;
          // A preview copies the open containers, so read it at a few points only (deep text has thousands open).
          if (readPreviews && i % 250 === 0) void (callOf(state, 'big') as ToolCall).partialArguments;
        }
        const call = callOf(state, 'big') as ToolCall;
        expect(call.status).toBe('settled');
        expect(call.argumentsText === text).toBe(true);
        // Either the final value, or a clear reason why it cannot be held; never a crash.
        expect(call.arguments !== undefined || call.argumentsError !== undefined).toBe(true);
        if (s.kind === 'deep') deepest = Math.max(deepest, s.size);
      }),
      { seed: SEED + 1, numRuns: 25 },
    );
    expect(deepest).toBeGreaterThan(10_000);
  }, 60_000);
});

/** A local interrupt the scenario inserted: `{ local: { type: 'interrupt', turnId? } }`, applied as the page's own event. */
function isLocalInterrupt(event: unknown): boolean {
  try {
    return isJsonShaped(event) && typeof event === 'object' && event !== null && 'local' in event && Object.keys(event).length === 1;
  } catch {
    return false; // a hostile value (a Proxy whose traps throw) is a session's, never the page's
  }
}

/** Session events through stepToolEvent; the page's own interrupts through stepLocalToolEvent (what store.interrupt does). */
function stepAny(state: ToolStreamState, event: unknown, meta: { now: number }): ReturnType<typeof stepToolEvent<ToolStreamState>> {
  return isLocalInterrupt(event) ? stepLocalToolEvent(state, (event as { local: LocalToolEvent }).local, meta) : stepToolEvent(state, event, meta);
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function' ? String(v) : v));
    return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
  } catch {
    return '(not printable)';
  }
}
