/**
 * Reducer and store throughput with 100 calls open at once, their fragments interleaved, against
 * a naive reducer that keeps the text and reparses it with partial-json on every fragment (what
 * an app without an incremental parser does to show a preview).
 */
import { parse as partialJsonParse } from 'partial-json';
import { initialToolStreamState, reduceToolEvent, type ToolStreamState } from '../src/core/reducer';
import { createToolStreamStore } from '../src/core/store';
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
