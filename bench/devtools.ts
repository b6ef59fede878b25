/**
 * What the devtools panel costs a live session: 50 streams, fragments interleaved, through a real
 * client with the coalescing store ('frame'), once with nothing watching and once with the panel's
 * recorder attached and, on each of its frames, the panel's own work over the entries (the
 * filter's choices, the filtered list, the selected call's history). A ratio, measured side by
 * side: absolute times on a shared machine are noise. The DOM render of the panel is not in it
 * (it is one render per frame at most, like any subscriber's).
 */
import { createToolgate } from '../src/core/toolgate-client';
import { createDevtoolsRecorder } from '../src/devtools/recorder';
import { createCallHistory, createLatestEntries } from '../src/devtools/entry-filter';
import { interleavedEvents } from './store';

export interface DevtoolsBenchRow {
  panel: 'closed' | 'open';
  events: number;
  totalMs: number;
  frames: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function once(events: readonly unknown[], open: boolean): DevtoolsBenchRow {
  // A frame every 64 events: the store's and the recorder's coalesced notifications run there, as
  // they would between animation frames in a page.
  const pending: (() => void)[] = [];
  const scheduleFrame = (flush: () => void) => void pending.push(flush);
  const client = createToolgate({ storeOptions: { coalesce: 'frame', scheduleFrame } });
  client.calls.subscribe(() => {});
  let frames = 0;
  if (open) {
    const recorder = createDevtoolsRecorder(client, { scheduleFrame, limit: Infinity });
    // The panel keeps these across frames (each frame tests only what was added since the last).
    const latestEntries = createLatestEntries();
    const callHistory = createCallHistory();
    recorder.subscribe(() => {
      frames++;
      // What the panel computes per frame: the latest filtered events, the filters' choices (kept
      // by the recorder), the selected call's history (from the recorder's index).
      const { entries, length, choices, byCall } = recorder.getState();
      latestEntries(entries, length, { turnId: 't1' }, 300);
      void choices.callIds.length;
      callHistory(byCall.get('c0') ?? [], 'c0');
    });
  }
  gc();
  const t0 = performance.now();
  let i = 0;
  for (const event of events) {
    client.calls.getState().dispatch(event);
    if (++i % 64 === 0) for (const flush of pending.splice(0)) flush();
  }
  for (const flush of pending.splice(0)) flush();
  return { panel: open ? 'open' : 'closed', events: events.length, totalMs: performance.now() - t0, frames };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * `runs` pairs, closed then open, one after the other so that both of a pair meet the same
 * machine; the ratio is the median of the pairs' ratios. On a shared 2-core machine one pair, or
 * the best of each side, read anywhere from 1.2x to 2.4x for the same code: a pair's ratio
 * cancels what the machine did during that pair, and the median drops the pairs a neighbour's
 * build landed on. The rows show each side's median time.
 */
export function benchDevtools(runs = 9): { rows: DevtoolsBenchRow[]; ratio: number; ratios: number[] } {
  const events = interleavedEvents(50, 2000);
  // One pair first, not counted: the first run of each side also compiles its code.
  once(events, false);
  once(events, true);
  const closed: DevtoolsBenchRow[] = [];
  const open: DevtoolsBenchRow[] = [];
  for (let r = 0; r < runs; r++) {
    closed.push(once(events, false));
    open.push(once(events, true));
  }
  const ratios = open.map((o, i) => o.totalMs / (closed[i] as DevtoolsBenchRow).totalMs);
  const row = (side: DevtoolsBenchRow[]): DevtoolsBenchRow => ({ ...(side[0] as DevtoolsBenchRow), totalMs: median(side.map((r) => r.totalMs)) });
  return { rows: [row(closed), row(open)], ratio: median(ratios), ratios };
}
