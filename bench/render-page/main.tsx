/**
 * The rendering bench page (built by bench/render.ts with Vite, twice: with React's production
 * build, timed, and with its profiling build, whose `<Profiler>` reports). It streams the same calls, in real time,
 * into the kit's `<ToolCallList>` and into a naive list, one after the other, and counts renders.
 * Frame times come from the browser's trace, read by bench/render.ts between the two marks.
 */
import { createRoot } from 'react-dom/client';
import { createToolStreamStore, type ToolStreamStore } from 'toolgate';
import 'toolgate/styles.css';
import { MARK_END, MARK_START, type RenderBenchApi, type RenderKind, type RunOptions, type RunResult } from './api';
import { RenderCounter } from './counter';
import { benchCalls, drive, type BenchCall } from './driver';
import { KitList } from './kit';
import { NaiveList, type NaiveCall } from './naive';
import { mountLong, scrollLong, unmountLong } from './scroll';

declare global {
  interface Window {
    renderBench?: RenderBenchApi;
  }
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await nextFrame();
};

/** One animation frame callback every frame while measuring, so the trace marks every frame. */
function keepFrames(): () => void {
  let on = true;
  const loop = () => {
    if (on) requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  return () => {
    on = false;
  };
}

/** The last record's email and zip, and the path: values the list must show once the call is done. */
function finalValues(call: BenchCall): string[] {
  const args = JSON.parse(call.text) as { path: string; records: { email: string; address: { zip: string } }[] };
  const last = args.records[args.records.length - 1];
  return [args.path, ...(last ? [last.email, last.address.zip] : [])];
}

/** Each call's item (found by its `data-call-id`) is done and shows the call's final values. */
function checkItems(container: HTMLElement, selector: string, calls: readonly BenchCall[], problems: string[]): number {
  const items = container.querySelectorAll(selector);
  if (items.length !== calls.length) problems.push(`${items.length} items shown for ${calls.length} calls`);
  for (const call of calls) {
    const item = container.querySelector(`${selector}[data-call-id="${call.callId}"]`);
    if (!item) {
      problems.push(`${call.callId}: not shown`);
      continue;
    }
    if (item.getAttribute('data-status') !== 'settled') problems.push(`${call.callId}: shown as ${item.getAttribute('data-status')}`);
    const text = item.textContent ?? '';
    for (const value of finalValues(call)) if (!text.includes(value)) problems.push(`${call.callId}: ${JSON.stringify(value)} not shown`);
  }
  return items.length;
}

function checkKit(container: HTMLElement, store: ToolStreamStore, calls: readonly BenchCall[], windowed: boolean): RunResult['check'] {
  const problems: string[] = [];
  const state = store.getState();
  for (const call of calls) {
    const shown = state.calls[call.callId];
    if (!shown) problems.push(`${call.callId}: not in the store`);
    else if (JSON.stringify(shown.arguments) !== JSON.stringify(JSON.parse(call.text))) problems.push(`${call.callId}: final arguments differ`);
  }
  // Windowed, only the calls in view are mounted: those must show their final values.
  const mounted = new Set([...container.querySelectorAll('article.toolgate-card')].map((item) => item.getAttribute('data-call-id')));
  const items = checkItems(container, 'article.toolgate-card', windowed ? calls.filter((call) => mounted.has(call.callId)) : calls, problems);
  if (items === 0) problems.push('no call shown');
  return { ok: problems.length === 0, items, problems: problems.slice(0, 5) };
}

function checkNaive(container: HTMLElement, calls: readonly BenchCall[]): RunResult['check'] {
  const problems: string[] = [];
  const items = checkItems(container, 'article.naive-card', calls, problems);
  return { ok: problems.length === 0, items, problems: problems.slice(0, 5) };
}

async function run(kind: RenderKind, options: RunOptions): Promise<RunResult> {
  const calls = benchCalls(options.calls, options.fragmentSize);
  const container = document.createElement('div');
  container.id = kind;
  document.getElementById('root')?.append(container);
  const root = createRoot(container);

  let dispatch: (event: unknown) => void;
  let processed: () => number;
  let refused = 0;
  let counter: RenderCounter;
  let check: () => RunResult['check'];

  if (kind === 'toolgate') {
    const store = createToolStreamStore({ coalesce: 'frame', onError: () => refused++ });
    counter = new RenderCounter((id) => store.getState().calls[id]);
    let accepted = 0;
    const { dispatch: toStore } = store.getState();
    dispatch = (event) => {
      accepted++;
      toStore(event);
    };
    processed = () => accepted - refused;
    check = () => checkKit(container, store, calls, options.windowAfter === undefined || options.windowAfter < calls.length + 1);
    root.render(<KitList store={store} counter={counter} windowAfter={options.windowAfter} />);
  } else {
    const seen = new Map<string, NaiveCall>();
    counter = new RenderCounter((id) => seen.get(id));
    const listeners = new Set<(event: unknown) => void>();
    const applied = new Set<unknown>();
    dispatch = (event) => {
      for (const listener of listeners) listener(event);
    };
    processed = () => applied.size;
    check = () => checkNaive(container, calls);
    const subscribe = (listener: (event: unknown) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    root.render(<NaiveList subscribe={subscribe} counter={counter} seen={seen} onApplied={(event) => applied.add(event)} />);
  }

  await frames(3);
  const stop = keepFrames();
  console.timeStamp(MARK_START);
  const stats = await drive(calls, dispatch, options.rate);
  // Let the list catch up with what was emitted (the naive one may be far behind), then two frames.
  for (let waited = 0; processed() + refused < stats.events && waited < 600; waited++) await nextFrame();
  await frames(2);
  console.timeStamp(MARK_END);
  stop();

  const result: RunResult = {
    kind,
    calls: calls.length,
    eventsEmitted: stats.events,
    eventsProcessed: processed(),
    eventsRefused: refused,
    lagP50: stats.lagP50,
    lagP95: stats.lagP95,
    lagMax: stats.lagMax,
    wallMs: stats.wallMs,
    commits: counter.commits,
    reactMs: counter.reactMs,
    rendersPerCall: calls.map((call) => counter.perCall.get(call.callId) ?? 0),
    changedRenders: counter.changed,
    clockRenders: counter.clock,
    unchangedRenders: counter.unchanged,
    check: check(),
    elements: container.querySelectorAll('*').length,
  };
  root.unmount();
  container.remove();
  return result;
}

async function eventsOnly(options: RunOptions): Promise<{ events: number; lagP95: number }> {
  const calls = benchCalls(options.calls, options.fragmentSize);
  let taken = 0;
  await frames(3);
  const stop = keepFrames();
  console.timeStamp(MARK_START);
  const stats = await drive(calls, () => taken++, options.rate);
  await frames(2);
  console.timeStamp(MARK_END);
  stop();
  return { events: taken, lagP95: stats.lagP95 };
}

async function idle(ms: number): Promise<void> {
  const stop = keepFrames();
  console.timeStamp(MARK_START);
  await new Promise((resolve) => setTimeout(resolve, ms));
  console.timeStamp(MARK_END);
  stop();
}

async function measuredScroll(options: Parameters<typeof scrollLong>[0]) {
  const stop = keepFrames();
  console.timeStamp(MARK_START);
  const result = await scrollLong(options);
  console.timeStamp(MARK_END);
  stop();
  return result;
}

window.renderBench = { run, eventsOnly, idle, mountLong, scrollLong: measuredScroll, unmountLong };
