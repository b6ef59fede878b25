/**
 * Rendering in real Chromium: 50 calls streaming at once, 100 fragments per second each, into
 * the kit's `<ToolCallList>` (store with `coalesce: 'frame'`) and into a naive list that keeps the
 * calls in an array in React state and reparses every item with partial-json on every event.
 *
 * The page (bench/render-page/) is built with Vite twice, into bench/.work/render-page-production
 * (React's plain production build: timed) and bench/.work/render-page-profiling (React's profiling
 * build, so `<Profiler>` reports: counted, in a second run of each list), and served to the browser
 * by request interception: no server, no port. The events are emitted inside the page by timers,
 * so the rate is real; an events-only run emits them into nothing. Measured per list:
 * - renders of each call's item (a `<Profiler>` around it) and those of calls that had not
 *   changed, and React commits of the whole list;
 * - main-thread work per frame, from the browser's own trace: the time of the renderer's main
 *   thread tasks between one animation frame and the next (the interval between frames is fixed
 *   at 16.7 ms by vsync whenever the page keeps up, so intervals alone cannot show headroom);
 * - scripting and task time (CDP `Performance.getMetrics`), and React's own render time.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Gate } from './main';
import { MARK_END, MARK_START, type RenderBenchApi, type RunOptions, type RunResult, type ScrollOptions, type ScrollResult } from './render-page/api';
import { percentile } from './render-page/driver';
import { table } from './table';
import type { Page } from 'playwright';

const OPTIONS: RunOptions = { calls: 50, rate: 100, fragmentSize: 4 };
const SCROLL: ScrollOptions = { calls: 10_000, frames: 240, step: 120 };
/** The kit's list as an app uses it (windowed past 30 rows), and with every call mounted (the naive list's work). */
const KIT_RUNS = [
  ['toolgate', undefined],
  ['toolgate, every row mounted', 1e9],
] as const;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const ORIGIN = 'http://toolgate.bench';
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

/** The repository root: the bench runs bundled from bench/.work/, or from its sources. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'bench', 'render-page'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('bench/render: repository root not found');
    dir = up;
  }
  return dir;
}

/**
 * Which React the page is built with. `production`: the plain production build an app ships; its
 * `<Profiler>` reports nothing, so this page is the one timed. `profiling`: React's profiling
 * build, whose `<Profiler>` reports every commit and render, but which also logs each component's
 * render to the browser's performance timeline (a cost that grows with the number of components,
 * not with the work); this page only counts.
 */
type ReactBuild = 'production' | 'profiling';

async function buildPage(root: string, react: ReactBuild): Promise<string> {
  const { build } = await import('vite');
  const { default: reactPlugin } = await import('@vitejs/plugin-react');
  const outDir = join(root, 'bench', '.work', `render-page-${react}`);
  await build({
    configFile: false,
    root: join(root, 'bench', 'render-page'),
    base: './',
    mode: 'production',
    logLevel: 'warn',
    plugins: [reactPlugin()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    resolve: {
      alias: [
        // React's production build with the Profiler enabled (the plain one drops onRender).
        ...(react === 'profiling' ? [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }] : []),
        { find: 'toolgate/styles.css', replacement: join(root, 'src', 'styles.css') },
        { find: /^toolgate$/, replacement: join(root, 'src', 'index.ts') },
      ],
    },
    // BENCH_PROFILE=1: unminified, so the CPU profile names the kit's and React's functions.
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 2048, ...(PROFILE && { minify: false }) },
  });
  return outDir;
}

/** `BENCH_PROFILE=1 npm run bench -- render`: a CDP CPU profile of each list's run, summarised by self time. */
const PROFILE = process.env['BENCH_PROFILE'] === '1';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time per function (name, file and line), the largest first, the share of each file, and
 * total time (the function and all it called, each sample counted once per function on its stack):
 * self time alone spreads React's work over its many small functions, total time shows which of
 * the page's and the kit's functions it was done for.
 */
function summariseProfile(profile: CpuProfile, top = 18): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (frame: CpuProfile['nodes'][number]['callFrame']) =>
    `${frame.functionName || '(anonymous)'}  ${frame.url === '' ? '(native)' : (frame.url.split('/').pop() ?? frame.url)}:${frame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (frame === undefined) return;
    const file = frame.url === '' ? '(native)' : (frame.url.split('/').pop() ?? frame.url);
    const key = keyOf(frame);
    self.set(key, (self.get(key) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    total += us;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at);
      if (f === undefined || f.url === '') continue;
      const k = keyOf(f);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  });
  const line = ([key, us]: [string, number]) => `  ${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`;
  return [
    `  total sampled ${(total / 1000).toFixed(0)} ms; by self time:`,
    ...[...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(line),
    '  by total time (with what it called):',
    ...[...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top + 12).map(line),
    '  by file:',
    ...[...byFile].sort((a, b) => b[1] - a[1]).slice(0, 6).map(line),
  ].join('\n');
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event: what the main thread spent, not what it waited for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { message?: string } };
}

export interface FrameStats {
  frames: number;
  /** Main-thread CPU time of the tasks from one animation frame to the next (ms). */
  workP50: number;
  workP95: number;
  workMax: number;
  /** The same in wall time: on a shared machine it includes waiting for a core. */
  wallP95: number;
  /** Time from one animation frame to the next (ms). */
  intervalP95: number;
  intervalMax: number;
  /** Main-thread tasks over 50 ms of wall time (what the Long Tasks API reports). */
  longTasks: number;
  /** Share of the measured window the main thread was running (CPU) and busy (wall). */
  cpuShare: number;
  busy: number;
}

interface Task {
  ts: number;
  end: number;
  cpu: number;
}

/** Frame work from a Chromium trace, between the page's start and end marks. */
export function frameStats(trace: Buffer): FrameStats {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mark = (message: string) => events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === message);
  const start = mark(MARK_START);
  const end = mark(MARK_END);
  if (!start || !end) throw new Error('bench/render: the trace lacks the page marks');
  const onMain = (e: TraceEvent) => e.pid === start.pid && e.tid === start.tid;

  // Top-level tasks of the page's main thread (a nested run loop's tasks are inside another).
  const tasks: Task[] = [];
  for (const e of events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && onMain(e)).sort((a, b) => a.ts - b.ts)) {
    const last = tasks[tasks.length - 1];
    if (last && e.ts < last.end) continue;
    tasks.push({ ts: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0 });
  }
  const taskAt = (ts: number) => tasks.find((t) => t.ts <= ts && ts <= t.end);
  // A frame begins with the task that runs its animation frame callbacks.
  const frameStarts = [
    ...new Set(
      events
        .filter((e) => e.name === 'FireAnimationFrame' && onMain(e) && e.ts >= start.ts && e.ts <= end.ts)
        .map((e) => taskAt(e.ts)?.ts ?? e.ts),
    ),
  ].sort((a, b) => a - b);

  const work: number[] = [];
  const wall: number[] = [];
  const intervals: number[] = [];
  let t = 0;
  for (let f = 0; f + 1 < frameStarts.length; f++) {
    const from = frameStarts[f] as number;
    const to = frameStarts[f + 1] as number;
    while (t < tasks.length && (tasks[t] as Task).ts < from) t++;
    let cpu = 0;
    let busy = 0;
    for (let k = t; k < tasks.length && (tasks[k] as Task).ts < to; k++) {
      const task = tasks[k] as Task;
      cpu += task.cpu;
      busy += task.end - task.ts;
    }
    work.push(cpu / 1000);
    wall.push(busy / 1000);
    intervals.push((to - from) / 1000);
  }
  const inWindow = tasks.filter((task) => task.ts >= start.ts && task.ts <= end.ts);
  const window = Math.max(1, end.ts - start.ts);
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const w = sorted(work);
  const iv = sorted(intervals);
  return {
    frames: work.length,
    workP50: percentile(w, 50),
    workP95: percentile(w, 95),
    workMax: w[w.length - 1] ?? 0,
    wallP95: percentile(sorted(wall), 95),
    intervalP95: percentile(iv, 95),
    intervalMax: iv[iv.length - 1] ?? 0,
    longTasks: inWindow.filter((task) => task.end - task.ts > 50_000).length,
    cpuShare: inWindow.reduce((sum, task) => sum + task.cpu, 0) / window,
    busy: inWindow.reduce((sum, task) => sum + (Math.min(task.end, end.ts) - task.ts), 0) / window,
  };
}

export interface RenderRow {
  list: 'idle page' | 'events only' | 'toolgate' | 'toolgate, every row mounted' | 'naive';
  /** The timed run (React's production build): events, lag, the final check; its render counts are 0. */
  run: RunResult | undefined;
  /** The counted run of the same list (React's profiling build): commits, renders, React's render time. */
  counted: RunResult | undefined;
  /** Scripting of the counted run (ms): what the profiling build's own logging adds. */
  profilingScriptMs: number;
  frames: FrameStats;
  /** CDP Performance.getMetrics deltas over the run (ms). */
  scriptMs: number;
  taskMs: number;
  layoutMs: number;
  styleMs: number;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? '1' : '∞') : (a / b).toFixed(a / b >= 10 ? 0 : 2));

export interface ScrollRow {
  list: 'toolgate' | 'naive';
  result: ScrollResult;
  mountMs: number;
  frames: FrameStats;
  /** JavaScript heap over the page's before mounting (after a GC): once mounted, and after the scroll. */
  heapMountedMb: number;
  heapAfterScrollMb: number;
}

export async function benchRender(): Promise<{ rows: RenderRow[]; scrolls: ScrollRow[]; gates: Gate[] }> {
  const root = repositoryRoot();
  const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`bench/render: Chromium not found at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`);

  process.stdout.write('\nrender: building the page twice (Vite; React production, and React profiling)…\n');
  const productionDir = await buildPage(root, 'production');
  const profilingDir = await buildPage(root, 'profiling');

  const { chromium } = await import('playwright');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const rows: RenderRow[] = [];
  const scrolls: ScrollRow[] = [];
  const pageProblems: string[] = [];
  const profiles: string[] = [];
  try {
    const open = async (pageDir: string) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') pageProblems.push(`console error: ${message.text()}`);
      });
      // Serve the built page from disk by interception: nothing listens on a port.
      await page.route(`${ORIGIN}/**`, async (route) => {
        const file = normalize(join(pageDir, new URL(route.request().url()).pathname));
        if (!file.startsWith(pageDir + sep) || !existsSync(file)) return route.fulfill({ status: 404 });
        return route.fulfill({ path: file });
      });
      await page.goto(`${ORIGIN}/index.html`);
      await page.waitForFunction(() => window.renderBench !== undefined);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      const metrics = async () => {
        const { metrics: list } = await cdp.send('Performance.getMetrics');
        return Object.fromEntries(list.map((m) => [m.name, m.value]));
      };
      return { page, cdp, metrics };
    };
    const runList = (page: Page, list: RenderRow['list']) => {
      const windowAfter = KIT_RUNS.find(([name]) => name === list)?.[1];
      const kind = list === 'naive' ? 'naive' : 'toolgate';
      const options: RunOptions = { ...OPTIONS, ...(windowAfter !== undefined && { windowAfter }) };
      return page.evaluate(([kind, options]) => (window.renderBench as RenderBenchApi).run(kind, options), [kind, options] as const);
    };
    const LISTS = [...KIT_RUNS.map(([list]) => list), 'naive'] as const;

    // 1. Timed: React's production build, as an app ships it (its <Profiler> does nothing).
    {
      const { page, cdp, metrics } = await open(productionDir);
      const measure = async (list: RenderRow['list'], body: () => Promise<RunResult | undefined>) => {
        process.stdout.write(`render: ${list} (timed, React production)…\n`);
        const before = await metrics();
        await browser.startTracing(page, { categories: TRACE_CATEGORIES });
        let trace: Buffer;
        let run: RunResult | undefined;
        if (PROFILE) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        try {
          run = await body();
        } finally {
          trace = await browser.stopTracing();
          if (PROFILE) {
            const { profile } = await cdp.send('Profiler.stop');
            // The whole profile too, for Chromium's DevTools (Performance panel, "Load profile").
            writeFileSync(join(root, 'bench', '.work', `profile-${list.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
            profiles.push(`\nCPU profile of "${list}" (React production build, sampled in the page, CDP)\n${summariseProfile(profile as CpuProfile)}`);
          }
        }
        const after = await metrics();
        const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
        rows.push({
          list,
          run,
          counted: undefined,
          profilingScriptMs: 0,
          frames: frameStats(trace),
          scriptMs: delta('ScriptDuration'),
          taskMs: delta('TaskDuration'),
          layoutMs: delta('LayoutDuration'),
          styleMs: delta('RecalcStyleDuration'),
        });
      };

      await measure('idle page', async () => {
        await page.evaluate((ms) => (window.renderBench as RenderBenchApi).idle(ms), 1500);
        return undefined;
      });
      await measure('events only', async () => {
        const { events } = await page.evaluate(([options]) => (window.renderBench as RenderBenchApi).eventsOnly(options), [OPTIONS] as const);
        if (events === 0) throw new Error('bench/render: the event source emitted nothing');
        return undefined;
      });
      for (const list of LISTS) await measure(list, () => runList(page, list));

      // A long session: 10,000 settled calls, mounted, then scrolled a step per frame and to the end.
      const heap = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        return usedSize;
      };
      for (const list of ['toolgate', 'naive'] as const) {
        process.stdout.write(`render: ${SCROLL.calls} calls, ${list}, scrolled…\n`);
        const before = await heap();
        const { mountMs } = await page.evaluate(([kind, options]) => (window.renderBench as RenderBenchApi).mountLong(kind, options), [list, SCROLL] as const);
        const mountedHeap = await heap();
        await browser.startTracing(page, { categories: TRACE_CATEGORIES });
        let trace: Buffer;
        let result: ScrollResult;
        try {
          result = await page.evaluate(([options]) => (window.renderBench as RenderBenchApi).scrollLong(options), [SCROLL] as const);
        } finally {
          trace = await browser.stopTracing();
        }
        const after = await heap();
        await page.evaluate(() => (window.renderBench as RenderBenchApi).unmountLong());
        scrolls.push({ list, result, mountMs, frames: frameStats(trace), heapMountedMb: (mountedHeap - before) / 2 ** 20, heapAfterScrollMb: (after - before) / 2 ** 20 });
      }
      await page.close();
    }

    // 2. Counted: React's profiling build, whose <Profiler> reports commits and renders. Its
    //    times carry the build's own logging, so only its counts (and its check) are kept.
    {
      const { page, metrics } = await open(profilingDir);
      for (const list of LISTS) {
        process.stdout.write(`render: ${list} (counted, React profiling)…\n`);
        const before = await metrics();
        const counted = await runList(page, list);
        const after = await metrics();
        const row = rows.find((r) => r.list === list) as RenderRow;
        row.counted = counted;
        row.profilingScriptMs = ((after['ScriptDuration'] ?? 0) - (before['ScriptDuration'] ?? 0)) * 1000;
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }

  type Listed = RenderRow & { run: RunResult; counted: RunResult };
  const kit = rows.find((r) => r.list === 'toolgate') as Listed;
  const all = rows.find((r) => r.list === 'toolgate, every row mounted') as Listed;
  const naive = rows.find((r) => r.list === 'naive') as Listed;
  // The event source alone (timers emitting into nothing): part of every list's figures.
  const source = rows.find((r) => r.list === 'events only') as RenderRow;
  const perCall = (r: RenderRow) => mean(r.counted?.rendersPerCall ?? []);

  // Each line: its name, its cell, and the figure whose naive ÷ kit ratio is shown (or none).
  type Line = [string, (r: RenderRow) => string, ((r: Listed) => number) | undefined, string?];
  const lines: Line[] = [
    ['events emitted / taken in', (r) => (r.run ? `${r.run.eventsEmitted} / ${r.run.eventsProcessed}` : ''), undefined],
    ['emission lag p95 / max, ms', (r) => (r.run ? `${ms(r.run.lagP95)} / ${ms(r.run.lagMax)}` : ''), (r) => r.run.lagP95, ' (p95)'],
    ['scripting, ms (CDP ScriptDuration)', (r) => ms(r.scriptMs), (r) => r.scriptMs],
    ['scripting over the events alone, ms', (r) => (r.run ? ms(r.scriptMs - source.scriptMs) : ''), (r) => r.scriptMs - source.scriptMs],
    ['main-thread tasks over the events alone, ms', (r) => (r.run ? ms(r.taskMs - source.taskMs) : ''), (r) => r.taskMs - source.taskMs],
    ['style + layout, ms (CDP)', (r) => ms(r.styleMs + r.layoutMs), (r) => r.styleMs + r.layoutMs],
    ['main-thread tasks, ms (CDP TaskDuration)', (r) => ms(r.taskMs), (r) => r.taskMs],
    ['main thread running (CPU) / busy (wall)', (r) => `${(r.frames.cpuShare * 100).toFixed(0)} % / ${(r.frames.busy * 100).toFixed(0)} %`, (r) => r.frames.cpuShare, ' (CPU)'],
    ['frame work, CPU, p50 / p95 / max, ms', (r) => `${ms(r.frames.workP50)} / ${ms(r.frames.workP95)} / ${ms(r.frames.workMax)}`, (r) => r.frames.workP95, ' (p95)'],
    ['frame work, wall, p95, ms', (r) => ms(r.frames.wallP95), (r) => r.frames.wallP95],
    ['frame interval p95 / max, ms', (r) => `${ms(r.frames.intervalP95)} / ${ms(r.frames.intervalMax)}`, (r) => r.frames.intervalP95, ' (p95)'],
    ['frames measured', (r) => String(r.frames.frames), undefined],
    ['long tasks (> 50 ms)', (r) => String(r.frames.longTasks), undefined],
    ['DOM elements of the list at the end', (r) => (r.run ? String(r.run.elements) : ''), (r) => r.run.elements],
    ['final arguments shown', (r) => (r.run ? (r.run.check.ok ? `yes, ${r.run.check.items} items` : `NO: ${r.run.check.problems[0] ?? ''}`) : ''), undefined],
    ['counted (React profiling build):', () => '', undefined],
    ['React commits (whole list)', (r) => (r.counted ? String(r.counted.commits) : ''), (r) => r.counted.commits],
    ['events per commit', (r) => (r.counted ? (r.counted.eventsProcessed / Math.max(1, r.counted.commits)).toFixed(0) : ''), undefined],
    ['renders per call, mean (max)', (r) => (r.counted ? `${perCall(r).toFixed(0)} (${Math.max(...r.counted.rendersPerCall)})` : ''), (r) => perCall(r)],
    ['renders of calls that had not changed', (r) => (r.counted ? String(r.counted.unchangedRenders) : ''), undefined],
    ['renders for the elapsed-time clock', (r) => (r.counted ? String(r.counted.clockRenders) : ''), undefined],
    ['React render time, ms (Profiler)', (r) => (r.counted ? ms(r.counted.reactMs) : ''), (r) => r.counted.reactMs],
    ['scripting in the profiling build, ms', (r) => (r.counted ? ms(r.profilingScriptMs) : ''), (r) => r.profilingScriptMs],
    ['emission lag p95 in the profiling build, ms', (r) => (r.counted ? ms(r.counted.lagP95) : ''), (r) => r.counted.lagP95],
    ['final arguments shown (profiling build)', (r) => (r.counted ? (r.counted.check.ok ? `yes, ${r.counted.check.items} items` : `NO: ${r.counted.check.problems[0] ?? ''}`) : ''), undefined],
  ];
  console.log(
    `\nRendering in Chromium: ${OPTIONS.calls} calls streaming at once, ${OPTIONS.rate} fragments of ${OPTIONS.fragmentSize} characters per second each, ~1-2 KB arguments\n` +
      'toolgate: <ToolCallList>, store with coalesce: frame. naive: calls in an array in React state, whole list re-rendered, each item reparsed with partial-json.\n' +
      "Timed with React's production build; commits and renders counted in a second run of each list with React's profiling build (its <Profiler> reports; its own logging costs time).\n" +
      "events only: the same timers emitting the same events into nothing; the 'over the events alone' rows take its figure from each list's.\n" +
      'Frame work: main-thread task time from one animation frame to the next (Chromium trace); CPU is thread time, wall includes waiting for a core.\n',
  );
  const naiveOver = (kitRow: Listed) => ([, , figure, note]: Line) => (figure ? ratio(figure(naive), figure(kitRow)) + (note ?? '') : '');
  console.log(
    table(lines, [
      ['', ([name]) => name],
      ...rows.map((row): [string, (line: Line) => string] => [row.list, ([, cell]) => cell(row)]),
      ['naive ÷ toolgate', naiveOver(kit)],
      ['naive ÷ every row mounted', naiveOver(all)],
    ]),
  );
  for (const problem of [
    ...pageProblems,
    ...rows.flatMap((r) => [r.run, r.counted].flatMap((run) => (run && !run.check.ok ? run.check.problems.map((p) => `${r.list}: ${p}`) : []))),
  ])
    console.log(`  ${problem}`);

  const kitScroll = scrolls.find((r) => r.list === 'toolgate') as ScrollRow;
  const naiveScroll = scrolls.find((r) => r.list === 'naive') as ScrollRow;
  type ScrollLine = [string, (r: ScrollRow) => string, string];
  const scrollLines: ScrollLine[] = [
    ['mount, ms (store filled, first paint)', (r) => ms(r.mountMs), ratio(naiveScroll.mountMs, kitScroll.mountMs)],
    ['frame work while scrolling, CPU, p50 / p95 / max, ms', (r) => `${ms(r.frames.workP50)} / ${ms(r.frames.workP95)} / ${ms(r.frames.workMax)}`, ratio(naiveScroll.frames.workP95, kitScroll.frames.workP95) + ' (p95)'],
    ['frame interval p95 / max, ms', (r) => `${ms(r.frames.intervalP95)} / ${ms(r.frames.intervalMax)}`, ratio(naiveScroll.frames.intervalP95, kitScroll.frames.intervalP95) + ' (p95)'],
    ['long tasks (> 50 ms)', (r) => String(r.frames.longTasks), ''],
    ['JS heap once mounted, MB over the empty page', (r) => r.heapMountedMb.toFixed(1), ratio(naiveScroll.heapMountedMb, kitScroll.heapMountedMb)],
    ['JS heap after the scroll, MB', (r) => r.heapAfterScrollMb.toFixed(1), ratio(naiveScroll.heapAfterScrollMb, kitScroll.heapAfterScrollMb)],
    ['rows mounted at the end', (r) => String(r.result.rowsMounted), ratio(naiveScroll.result.rowsMounted, kitScroll.result.rowsMounted)],
    ['DOM elements of the list at the end', (r) => String(r.result.elements), ratio(naiveScroll.result.elements, kitScroll.result.elements)],
    ['last call shown after scrolling to the end', (r) => (r.result.lastShown ? 'yes' : 'NO'), ''],
  ];
  console.log(
    `\nA long session in Chromium: ${SCROLL.calls.toLocaleString('en')} settled calls, scrolled ${SCROLL.step} px a frame for ${SCROLL.frames} frames, then to the end\n` +
      'toolgate: <ToolCallList> as an app uses it (windowed past 30 rows). naive: every call mounted in a scrolling list, each with the same argument tree.\n',
  );
  console.log(
    table(scrollLines, [
      ['', ([name]) => name],
      ...scrolls.map((row): [string, (line: ScrollLine) => string] => [row.list, ([, cell]) => cell(row)]),
      ['naive ÷ toolgate', ([, , r]) => r],
    ]),
  );

  // A profiled run's own figures carry the sampler's cost: read its profile, take figures from a plain run.
  for (const profile of profiles) console.log(profile);

  const gates: Gate[] = [
    {
      kind: 'gate',
      name: 'render: the kit list, every row mounted, shows every call, settled, with its final arguments',
      measured: all.run.check.ok && pageProblems.length === 0 ? `${all.run.check.items} of ${all.run.calls}` : (pageProblems[0] ?? all.run.check.problems[0] ?? 'no'),
      limit: `${all.run.calls} of ${all.run.calls}`,
      pass: all.run.check.ok && all.counted.check.ok && pageProblems.length === 0 && all.run.eventsProcessed === all.run.eventsEmitted && all.counted.eventsProcessed === all.counted.eventsEmitted,
    },
    {
      kind: 'gate',
      name: 'render: the windowed kit list holds every call; the calls in view show their final arguments',
      measured: kit.run.check.ok && kit.counted.check.ok ? `${kit.run.check.items} in view, all ${kit.run.calls} in the store` : (kit.run.check.problems[0] ?? kit.counted.check.problems[0] ?? 'no'),
      limit: 'all',
      pass: kit.run.check.ok && kit.counted.check.ok && kit.run.eventsProcessed === kit.run.eventsEmitted && kit.counted.eventsProcessed === kit.counted.eventsEmitted,
    },
    {
      kind: 'gate',
      name: 'render: kit renders of calls that had not changed (every row mounted)',
      measured: `${kit.counted.unchangedRenders} windowed, ${all.counted.unchangedRenders} every row mounted`,
      limit: '= 0',
      pass: all.counted.unchangedRenders === 0 && kit.counted.unchangedRenders === 0,
    },
    ...([
      [kit, 0.35],
      [all, 0.5],
    ] as const).flatMap(([r, share]): Gate[] => [
      {
        kind: 'goal',
        name: `render: ${r.list}: main-thread CPU work per frame, p95 (absolute: noisy here)`,
        measured: `${ms(r.frames.workP95)} ms`,
        limit: '≤ 16 ms',
        pass: r.frames.workP95 <= 16,
      },
      {
        kind: 'goal',
        name: `render: ${r.list}: emission lag p95 (how late events left the page's timers; absolute)`,
        measured: `${ms(r.run.lagP95)} ms`,
        limit: '≤ 50 ms',
        pass: r.run.lagP95 <= 50,
      },
      {
        kind: 'goal',
        name: `render: ${r.list}: scripting time ÷ naive list's (React production build)`,
        measured: `${(r.scriptMs / naive.scriptMs).toFixed(3)} (over the events alone: ${((r.scriptMs - source.scriptMs) / (naive.scriptMs - source.scriptMs)).toFixed(3)})`,
        limit: `≤ ${share}`,
        pass: r.scriptMs <= naive.scriptMs * share,
      },

    ]),
    {
      kind: 'goal',
      name: 'render: renders per call, toolgate (every row mounted) / naive',
      measured: (perCall(all) / perCall(naive)).toFixed(3),
      limit: '< 1',
      pass: perCall(all) < perCall(naive),
    },
    {
      kind: 'gate',
      name: `render: ${SCROLL.calls.toLocaleString('en')} calls: the kit mounts a bounded number of rows and shows the last call at the end`,
      measured: `${kitScroll.result.rowsMounted} rows, last ${kitScroll.result.lastShown ? 'shown' : 'NOT shown'}`,
      limit: '≤ 100 rows, shown',
      pass: kitScroll.result.rowsMounted <= 100 && kitScroll.result.lastShown,
    },
    {
      kind: 'goal',
      name: `render: ${SCROLL.calls.toLocaleString('en')} calls scrolled: kit CPU work per frame, p95 (absolute: noisy here)`,
      measured: `${ms(kitScroll.frames.workP95)} ms`,
      limit: '≤ 16 ms',
      pass: kitScroll.frames.workP95 <= 16,
    },
    {
      kind: 'goal',
      name: `render: ${SCROLL.calls.toLocaleString('en')} calls: kit heap ÷ naive list's heap, once mounted`,
      measured: (kitScroll.heapMountedMb / Math.max(0.001, naiveScroll.heapMountedMb)).toFixed(3),
      limit: '< 0.5',
      pass: kitScroll.heapMountedMb < naiveScroll.heapMountedMb / 2,
    },
  ];
  return { rows, scrolls, gates };
}
