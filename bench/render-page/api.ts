/** What the bench page exposes to Playwright as `window.renderBench` (shared by the page and bench/render.ts). */

export type RenderKind = 'toolgate' | 'naive';

export interface RunOptions {
  /** Calls streaming at once. */
  calls: number;
  /** Fragments per second, per call. */
  rate: number;
  /** Characters (code points) per fragment. */
  fragmentSize: number;
  /** The kit list's `windowAfter` (its default when absent; `Infinity` mounts every call). */
  windowAfter?: number;
}

/** The long-session run: `calls` settled calls, scrolled by `step` pixels a frame for `frames` frames. */
export interface ScrollOptions {
  calls: number;
  frames: number;
  step: number;
}

export interface ScrollResult {
  /** Where the list ended up (px), and whether its last call was then shown. */
  scrolledPx: number;
  lastShown: boolean;
  /** Rows (or items) and elements in the list's DOM at the end. */
  rowsMounted: number;
  elements: number;
}

export interface RunResult {
  kind: RenderKind;
  calls: number;
  /** Events emitted by the driver, and events the list's state took in. */
  eventsEmitted: number;
  eventsProcessed: number;
  /** Events the store refused (`onError`); 0 expected. */
  eventsRefused: number;
  /** Emission lag against the schedule (ms): how well the page kept the real rate. */
  lagP50: number;
  lagP95: number;
  lagMax: number;
  /** From the first event to the last (ms). */
  wallMs: number;
  /** React commits of the whole tree, and the time React spent rendering (Profiler actualDuration). */
  commits: number;
  reactMs: number;
  /** Renders (Profiler commits) of each call's item, mount included, in call order. */
  rendersPerCall: number[];
  /** Renders after mount whose call had changed since that item's previous render. */
  changedRenders: number;
  /** Renders after mount whose call had not changed, excused by the item's elapsed-time clock. */
  clockRenders: number;
  /** Renders after mount whose call had not changed, with no clock tick to explain them. */
  unchangedRenders: number;
  /** The list shows every call's final arguments (checked in the DOM and, for the kit, the store). */
  check: { ok: boolean; items: number; problems: string[] };
  /** Elements in the list's DOM once every call is done. */
  elements: number;
}

export interface RenderBenchApi {
  run(kind: RenderKind, options: RunOptions): Promise<RunResult>;
  /**
   * Emit the same events as `run`, at the same rate, into nothing (each is only counted): the
   * cost of the event source itself, which every list's figures include.
   */
  eventsOnly(options: RunOptions): Promise<{ events: number; lagP95: number }>;
  /** Keep animation frames going for `ms` with nothing else to do: the floor of the page's frame work. */
  idle(ms: number): Promise<void>;
  /** Mount a long session in `kind`'s list (not measured for frames: a page load). */
  mountLong(kind: RenderKind, options: ScrollOptions): Promise<{ mountMs: number }>;
  /** Scroll the mounted long session, between the marks. */
  scrollLong(options: ScrollOptions): Promise<ScrollResult>;
  unmountLong(): void;
}

/** Marks (console.timeStamp) that bound a measured run in the trace. */
export const MARK_START = 'toolgate-bench:start';
export const MARK_END = 'toolgate-bench:end';
