/**
 * Reducer and store throughput with 100 calls open at once, their fragments interleaved, against
 * a naive reducer that keeps the text and reparses it with partial-json on every fragment (what
 * an app without an incremental parser does to show a preview).
 */
import { parse as partialJsonParse } from 'partial-json';
import { initialToolStreamState, reduceToolEvent, type ToolStreamState } from '../src/core/stream/reducer';
import { createToolStreamStore } from '../src/core/stream/store';
import { callOf } from '../src/core/stream/call-table';
import { fragments, realisticArguments } from './inputs';

export interface ThroughputRow {
  competitor: string;
  events: number;
  eventsPerSecond: number;
  totalMs: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** 100 calls: start all, interleave their 4-character fragments, complete and settle each. */
export function interleavedEvents(calls = 100, bytes = 2000): unknown[] {
  const events: unknown[] = [];
  const texts = Array.from({ length: calls }, (_, i) => fragments(realisticArguments(bytes + i), 4));
  for (let i = 0; i < calls; i++) events.push({ type: 'tool.stream', phase: 'start', callId: `c${i}`, turnId: 't1', name: 'import' });
  const longest = Math.max(...texts.map((t) => t.length));
  for (let f = 0; f < longest; f++) {
    for (let i = 0; i < calls; i++) {
      const delta = texts[i]?.[f];
      if (delta !== undefined) events.push({ type: 'tool.stream', phase: 'arguments-delta', callId: `c${i}`, delta });
    }
  }
  for (let i = 0; i < calls; i++) {
    events.push({ type: 'tool.stream', phase: 'arguments-complete', callId: `c${i}`, arguments: (texts[i] ?? []).join('') });
    events.push({ type: 'tool.stream', phase: 'settled', callId: `c${i}`, ok: true });
  }
  return events;
}

function best(runs: number, run: () => void): number {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    gc();
    const t0 = performance.now();
    run();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

/** What an app without an incremental parser does: keep the text, reparse it for each preview. */
function naiveReduce(state: Record<string, { text: string; preview: unknown }>, event: { phase: string; callId: string; delta?: string }) {
  const call = state[event.callId] ?? { text: '', preview: undefined };
  if (event.phase !== 'arguments-delta') return { ...state, [event.callId]: call };
  const text = call.text + event.delta;
  let preview: unknown;
  try {
    preview = partialJsonParse(text);
  } catch {
    preview = call.preview;
  }
  return { ...state, [event.callId]: { text, preview } };
}

export function benchThroughput(): ThroughputRow[] {
  const events = interleavedEvents();
  const row = (competitor: string, ms: number): ThroughputRow => ({
    competitor,
    events: events.length,
    totalMs: ms,
    eventsPerSecond: events.length / (ms / 1000),
  });
  const reducerMs = best(3, () => {
    let state: ToolStreamState = initialToolStreamState();
    for (const event of events) state = reduceToolEvent(state, event);
  });
  const storeMs = best(3, () => {
    const store = createToolStreamStore();
    const { dispatch } = store.getState();
    for (const event of events) dispatch(event);
  });
  // A subscriber that reads the preview of the call each event changed, as a view of it would.
  const readingMs = best(3, () => {
    const store = createToolStreamStore();
    store.subscribe((state, previous) => {
      for (const id of state.order) if (state.calls[id] !== previous.calls[id]) void state.calls[id]?.partialArguments;
    });
    const { dispatch } = store.getState();
    for (const event of events) dispatch(event);
  });
  const naiveMs = best(1, () => {
    let state: Record<string, { text: string; preview: unknown }> = {};
    for (const event of events) state = naiveReduce(state, event as { phase: string; callId: string; delta?: string });
  });
  return [
    row('reduceToolEvent', reducerMs),
    row('store.dispatch', storeMs),
    row('store.dispatch + preview read per change', readingMs),
    row('naive reducer reparsing with partial-json', naiveMs),
  ];
}

/**
 * A wide array still open, streamed through the store in 4-character fragments, with a subscriber
 * that reads the preview of the call each event changed (as a card showing it does).
 */
export function measureWideThroughStore(items: number, runs = 3): { items: number; events: number; totalMs: number } {
  const text = `{"values":[${Array.from({ length: items }, (_, i) => i % 10).join(',')}]}`;
  const events: unknown[] = [{ type: 'tool.stream', phase: 'start', callId: 'wide', turnId: 't1', name: 'import' }];
  for (let i = 0; i < text.length; i += 4) events.push({ type: 'tool.stream', phase: 'arguments-delta', callId: 'wide', delta: text.slice(i, i + 4) });
  const totalMs = best(runs, () => {
    const store = createToolStreamStore();
    store.subscribe((state) => void callOf(state, 'wide')?.partialArguments);
    const { dispatch } = store.getState();
    for (const event of events) dispatch(event);
  });
  return { items, events: events.length, totalMs };
}

/** The events of `calls` short calls, one after another (start, three fragments, complete, settled). */
function sessionOf(calls: number): unknown[] {
  const events: unknown[] = [];
  for (let i = 0; i < calls; i++) {
    const callId = `c${i}`;
    events.push({ type: 'tool.stream', phase: 'start', callId, turnId: `t${i >> 4}`, name: 'lookup' });
    for (const delta of ['{"q":', `"item ${i}"`, '}']) events.push({ type: 'tool.stream', phase: 'arguments-delta', callId, delta });
    events.push({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: { q: `item ${i}` } });
    events.push({ type: 'tool.stream', phase: 'settled', callId, ok: true });
  }
  return events;
}

/**
 * A store's cost per call as its session grows: a whole session of `calls` calls through the store
 * (six events a call), divided by the calls; best of `runs`. A subscriber reads the changed call, as
 * `useToolCall` does. Flat means a call costs the same in a long session as in a short one.
 */
export function measureCostPerCall(calls: number, runs = 3): { calls: number; usPerCall: number } {
  const events = sessionOf(calls);
  const ms = best(runs, () => {
    const store = createToolStreamStore();
    const { dispatch } = store.getState();
    let id = 0;
    store.subscribe((state) => void callOf(state, `c${id}`));
    for (let i = 0; i < events.length; i++) {
      id = i / 6 | 0;
      dispatch(events[i]);
    }
  });
  return { calls, usPerCall: (ms * 1000) / calls };
}
