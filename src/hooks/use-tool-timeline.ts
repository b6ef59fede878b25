import type { ToolStreamStore, ToolStreamStoreState } from '../core/stream/store';
import type { ToolCall } from '../core/stream/tool-call';
import { callOutcome, type ToolCallOutcome } from '../wording/labels';
import { useNow, type ToolgateClock } from './use-now';
import { useToolCalls } from './use-tool-call';
import { callOf } from '../core/stream/reducer';
import type { ToolApproval } from '../core/stream/local-events';
import type { ApprovalRecordsState } from '../core/approval/approval-records';
import { useStoreSelector } from './use-store-selector';
import { useRecordsOf } from './use-shown-approval';

/**
 * One call on the timeline: when it started, was issued and ended, as times and as fractions of the axis.
 *
 * @example
 * {rows.map(({ call, offset, writing, running }: ToolTimelineRow) => (
 *   <Bar key={call.callId} left={offset} widths={[writing, running]} />
 * ))}
 */
export interface ToolTimelineRow {
  call: ToolCall;
  outcome: ToolCallOutcome;
  /** Start, end of argument writing (issued, or the end), and end (or now), in ms since the epoch. */
  start: number;
  issued: number | undefined;
  end: number;
  /** Where the row sits on the shared axis, as fractions of the span (0..1). */
  offset: number;
  /** The writing part and the running part, as fractions of the span. */
  writing: number;
  running: number;
  /**
   * How deep the call is nested: 0 for a call of the turn itself, 1 for a call a sub-agent made
   * inside it (`parentCallId`), and so on. Rows come in tree order: each call right after the
   * call it was made in (and the calls made in that one), so indenting by `depth` draws the tree.
   */
  depth: number;
  /** The row this call is nested under (`undefined` at depth 0). */
  parentCallId: string | undefined;
  /**
   * Where the call stands with its approval: from its approval record inside a provider that
   * holds it, else the call's own `approval` (mirrored from that record).
   */
  approval: ToolApproval | undefined;
}

/**
 * What {@link useToolTimeline} returns: one row per call, on a shared time axis.
 *
 * @example
 * const { rows, from, to }: ToolTimelineLayout = useToolTimeline();
 */
export interface ToolTimelineLayout {
  rows: ToolTimelineRow[];
  /** The first start and the last end (or now) across the rows. */
  from: number;
  to: number;
}

/**
 * Options of {@link useToolTimeline}.
 *
 * @example
 * const layout = useToolTimeline({ now: replayEnd } satisfies UseToolTimelineOptions);
 */
export interface UseToolTimelineOptions {
  store?: ToolStreamStore;
  /** Where open calls end on the axis; default: the clock's time, ticking each second while calls are open. */
  now?: number;
  clock?: ToolgateClock;
}

// Only the fields the bars use: argument fragments do not re-render the timeline.
const sameRows = (a: readonly ToolCall[], b: readonly ToolCall[]) =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i] as ToolCall;
    return x.callId === y.callId && x.status === y.status && x.ok === y.ok && x.startedAt === y.startedAt && x.issuedAt === y.issuedAt && x.endedAt === y.endedAt && x.lateOutcome === y.lateOutcome && x.approval === y.approval && x.parentCallId === y.parentCallId;
  });
const selectRecords = (s: ApprovalRecordsState) => s.records;
const selectCalls = (s: ToolStreamStoreState) => s.order.map((id) => callOf(s, id) as ToolCall);

/**
 * The session's calls laid out on one time axis: when each started, how long its arguments took
 * to write, how long it ran, and how it ended. Calls without timestamps are left out.
 *
 * @example
 * const { rows } = useToolTimeline();
 * rows.map((r) => <div style={{ marginLeft: `${r.offset * 100}%`, width: `${(r.writing + r.running) * 100}%` }} />);
 */
export function useToolTimeline(options: UseToolTimelineOptions = {}): ToolTimelineLayout {
  const calls = treeOrder(useToolCalls(selectCalls, sameRows, options.store));
  const records = useStoreSelector(useRecordsOf(options.store), selectRecords, Object.is);
  const open = options.now === undefined && calls.ordered.some((c) => callOutcome(c) === 'open');
  const ticking = useNow(open, 1000, options.clock);
  const { ordered, depths } = calls;
  const timed = ordered.filter((c) => c.startedAt !== undefined);
  // Before the first tick (and on the server), open calls end at the latest time the store has seen.
  const now = options.now ?? ticking ?? Math.max(0, ...timed.flatMap((c) => [c.startedAt as number, c.issuedAt ?? 0, c.endedAt ?? 0]));
  const from = Math.min(...timed.map((c) => c.startedAt as number));
  const ends = timed.map((c) => ({ c, end: Math.max(c.endedAt ?? now, c.startedAt as number) }));
  const to = Math.max(from, ...ends.map((e) => e.end));
  const span = to - from || 1;
  const rows = ends.map(({ c, end }): ToolTimelineRow => {
    const start = c.startedAt as number;
    const issued = c.issuedAt === undefined ? undefined : Math.min(c.issuedAt, end);
    const writeEnd = issued ?? end;
    return {
      call: c,
      outcome: callOutcome(c),
      start,
      issued,
      end,
      offset: (start - from) / span,
      writing: (writeEnd - start) / span,
      running: (end - writeEnd) / span,
      depth: depths.get(c.callId) ?? 0,
      parentCallId: depths.get(c.callId) ? c.parentCallId : undefined,
      approval: (Object.hasOwn(records, c.callId) ? records[c.callId]?.status : undefined) ?? c.approval,
    };
  });
  return { rows, from: timed.length ? from : now, to: timed.length ? to : now };
}

/**
 * Calls in tree order: each right after the call it was made in (`parentCallId`), with its depth.
 * A call is nested only under a call that began before it (an unknown or later parent leaves it
 * at depth 0), so no ids can make a cycle; iterative, so any depth costs no stack. Memoised on the
 * selected array, which the selector keeps while nothing the bars show changed.
 */
const ordering = new WeakMap<readonly ToolCall[], { ordered: ToolCall[]; depths: Map<string, number> }>();
function treeOrder(calls: readonly ToolCall[]): { ordered: ToolCall[]; depths: Map<string, number> } {
  const known = ordering.get(calls);
  if (known) return known;
  const seen = new Set<string>();
  const children = new Map<string, ToolCall[]>();
  const top: ToolCall[] = [];
  for (const call of calls) {
    const parent = call.parentCallId;
    const siblings = parent !== undefined && seen.has(parent) ? children.get(parent) : top;
    if (siblings) siblings.push(call);
    else children.set(parent as string, [call]);
    seen.add(call.callId);
  }
  const ordered: ToolCall[] = [];
  const depths = new Map<string, number>();
  const stack: { list: ToolCall[]; at: number; depth: number }[] = [{ list: top, at: 0, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { list: ToolCall[]; at: number; depth: number };
    const call = frame.list[frame.at++];
    if (call === undefined) {
      stack.pop();
      continue;
    }
    ordered.push(call);
    depths.set(call.callId, frame.depth);
    const inside = children.get(call.callId);
    if (inside) stack.push({ list: inside, at: 0, depth: frame.depth + 1 });
  }
  const result = { ordered, depths };
  ordering.set(calls, result);
  return result;
}
