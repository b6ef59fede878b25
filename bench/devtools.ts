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
import { callHistory, latestEntries } from '../src/devtools/entry-filter';
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

/** Best of `runs` for each, alternating so that both meet the same machine. */
export function benchDevtools(runs = 5): { rows: DevtoolsBenchRow[]; ratio: number } {
  const events = interleavedEvents(50, 2000);
  let closed: DevtoolsBenchRow | undefined;
  let open: DevtoolsBenchRow | undefined;
  for (let r = 0; r < runs; r++) {
    const c = once(events, false);
    const o = once(events, true);
    if (closed === undefined || c.totalMs < closed.totalMs) closed = c;
    if (open === undefined || o.totalMs < open.totalMs) open = o;
  }
  const rows = [closed as DevtoolsBenchRow, open as DevtoolsBenchRow];
  return { rows, ratio: (open as DevtoolsBenchRow).totalMs / (closed as DevtoolsBenchRow).totalMs };
}
