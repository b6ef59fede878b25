/**
 * Memory: the heap retained by a store after 1,000 finished calls, and after `closed`, against
 * the heap before the session (after a forced GC each time; run node with --expose-gc).
 */
import { createToolStreamStore } from '../src/core/stream/store';
import { fragments, realisticArguments } from './inputs';

export interface MemoryRow {
  stage: string;
  heapUsedKB: number;
  overBaselineKB: number;
}

function settle(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

export function benchMemory(calls = 1000): MemoryRow[] {
  const texts = Array.from({ length: 20 }, (_, i) => realisticArguments(1000 + i * 50));
  const pieces = texts.map((t) => fragments(t, 4));
  const baseline = settle();
  const store = createToolStreamStore();
  const { dispatch } = store.getState();
  for (let i = 0; i < calls; i++) {
    const callId = `c${i}`;
    dispatch({ type: 'tool.stream', phase: 'start', callId, turnId: `t${i % 10}`, name: 'import' });
    for (const delta of pieces[i % pieces.length] as string[]) dispatch({ type: 'tool.stream', phase: 'arguments-delta', callId, delta });
    void store.getState().calls[callId]?.partialArguments;
    dispatch({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: texts[i % texts.length] });
    dispatch({ type: 'tool.stream', phase: 'settled', callId, ok: true });
  }
  const finished = settle();
  dispatch({ type: 'closed' });
  const closed = settle();
  const row = (stage: string, bytes: number): MemoryRow => ({
    stage,
    heapUsedKB: Math.round(bytes / 1024),
    overBaselineKB: Math.round((bytes - baseline) / 1024),
  });
  // Keep the store reachable until the end, so the last figure measures what `closed` released.
  void store.getState().closed;
  return [row('before the session', baseline), row(`after ${calls} finished calls`, finished), row('after closed', closed)];
}
