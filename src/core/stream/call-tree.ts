/**
 * The session's calls as a tree, flattened to the rows a list shows: each turn, its calls, and
 * under each call the calls a sub-agent made inside it (`parentCallId`, docs/protocol.md, "Rules of the stream": views
 * nest them under their parent, collapsible). Pure and React-free, so the list, its tests and a
 * page's own view share one reading of the tree.
 */
import type { ToolCallStatus } from './call-status';
import type { ToolCall } from './tool-call';

/**
 * Which calls a list shows. A call is shown when it matches every part given; a call that does
 * not match but holds one that does is shown too, as the way to it (`match: false` on its row).
 *
 * @example
 * const filter: ToolCallFilter = { statuses: ['issued', 'streaming'], name: 'search' };
 * <ToolCallList filter={filter} />
 */
export interface ToolCallFilter {
  /** Only calls in one of these statuses (every status when absent or empty). */
  statuses?: readonly ToolCallStatus[] | undefined;
  /** Only calls whose tool name contains this text, ignoring case (every name when absent or blank). */
  name?: string | undefined;
}

/**
 * One row of the flattened tree: a turn, or a call at its depth. `level`, `position` and
 * `setSize` are what a tree announces (`aria-level`, `aria-posinset`, `aria-setsize`): the
 * depth from 1, the place among the shown siblings from 1, and how many siblings are shown.
 *
 * @example
 * rows.map((row: ToolCallTreeRow) => row.kind === 'turn' ? <h3 key={row.key}>{row.turnId}</h3> : <Card key={row.key} callId={row.callId} />);
 */
export type ToolCallTreeRow = ToolCallTreeTurnRow | ToolCallTreeCallRow;

/**
 * A turn's row: the calls of one turn (in the order they began) are its children.
 *
 * @example
 * const title = (row: ToolCallTreeTurnRow) => (row.turnId ? `Turn ${row.turnNumber}` : 'Other calls');
 */
export interface ToolCallTreeTurnRow {
  kind: 'turn';
  /** Unique among the rows: `turn:` and the turn id. */
  key: string;
  /** The turn id; `''` for calls that came without one. */
  turnId: string;
  /** Which turn this is, from 1, in the order turns began (the same whatever the filter shows). */
  turnNumber: number;
  level: 1;
  position: number;
  setSize: number;
  /** Whether its calls are shown. */
  expanded: boolean;
  /** Calls shown directly under it (when expanded). */
  childCount: number;
}

/**
 * A call's row: level 2 for a turn's own calls, one more for each parent above it.
 *
 * @example
 * const indent = (row: ToolCallTreeCallRow) => `${(row.level - 2) * 1.5}rem`;
 */
export interface ToolCallTreeCallRow {
  kind: 'call';
  /** Unique among the rows: `call:` and the call id. */
  key: string;
  callId: string;
  name: string;
  turnId: string;
  /** The call this one is nested under; `undefined` at the top of its turn (also when its parent is unknown). */
  parentCallId: string | undefined;
  level: number;
  position: number;
  setSize: number;
  /** `undefined` for a call with no calls inside it (as shown); otherwise whether they are shown. */
  expanded: boolean | undefined;
  /** Calls shown directly under it. */
  childCount: number;
  /** `false` when the row is shown only because a call inside it matches the filter. */
  match: boolean;
}

/** What the tree needs of a call; kept while the call's object changes only in other fields. */
export interface CallTreeEntry {
  readonly callId: string;
  readonly name: string;
  readonly turnId: string;
  readonly parentCallId: string | undefined;
  readonly status: ToolCallStatus;
}

/** Row keys: prefixed, so a turn id that equals a call id names a different row. */
export const turnKey = (turnId: string) => `turn:${turnId}`;
export const callKey = (callId: string) => `call:${callId}`;

/** Whether `filter` leaves anything out (a blank name and no status leave nothing out). */
export function isFiltering(filter: ToolCallFilter | undefined): boolean {
  return filter !== undefined && ((filter.statuses?.length ?? 0) > 0 || (filter.name ?? '').trim() !== '');
}

/**
 * A selector of the tree's entries, one per call in `order`, that returns the same array while
 * no call's name, turn, parent (or, with `statuses`, status) changed: argument fragments of
 * streaming calls cost one comparison per call and no new array, so a list of thousands of calls
 * does not rebuild its tree for each frame of a stream.
 */
export function createEntrySelector(withStatus: boolean): (order: readonly string[], callOf: (id: string) => ToolCall | undefined) => readonly CallTreeEntry[] {
  let last: CallTreeEntry[] = [];
  let lastCalls: (ToolCall | undefined)[] = [];
  return (order, callOf) => {
    let changed = order.length !== last.length;
    const calls = new Array<ToolCall | undefined>(order.length);
    for (let i = 0; i < order.length; i++) {
      const call = callOf(order[i] as string);
      calls[i] = call;
      if (changed || call === lastCalls[i]) continue;
      const entry = last[i] as CallTreeEntry;
      if (call === undefined || entry.callId !== call.callId || entry.name !== call.name || entry.turnId !== (call.turnId ?? '') || entry.parentCallId !== call.parentCallId || (withStatus && entry.status !== call.status)) {
        changed = true;
      }
    }
    lastCalls = calls;
    if (!changed) return last;
    last = calls.flatMap((call) =>
      call === undefined ? [] : [{ callId: call.callId, name: call.name, turnId: call.turnId ?? '', parentCallId: call.parentCallId, status: call.status }],
    );
    // Positions line up with `order` only when every id had a call; otherwise compare afresh next time.
    if (last.length !== order.length) lastCalls = [];
    return last;
  };
}

interface Node {
  entry: CallTreeEntry;
  parent: string | undefined;
  children: string[];
}

/**
 * The rows to show: turns in the order they began, each followed (when expanded) by its calls,
 * each call by the calls nested in it. A call is nested under its `parentCallId` only when that
 * call began before it: a parent that is unknown, or that names a later call, leaves it at the
 * top of its turn, so no reading of the ids can make a cycle. Iterative, so nesting of any depth
 * costs no stack.
 *
 * @example
 * const rows = flattenCallTree(entries, { collapsed: new Set(['call:research-1']), filter: { name: 'search' } });
 */
export function flattenCallTree(
  entries: readonly CallTreeEntry[],
  options: { collapsed?: ReadonlySet<string>; filter?: ToolCallFilter | undefined } = {},
): ToolCallTreeRow[] {
  const collapsed = options.collapsed ?? new Set<string>();
  const nodes = new Map<string, Node>();
  const turns = new Map<string, string[]>(); // turn id → its top-level call ids, in order
  for (const entry of entries) {
    if (nodes.has(entry.callId)) continue;
    const parent = entry.parentCallId !== undefined && nodes.has(entry.parentCallId) ? entry.parentCallId : undefined;
    nodes.set(entry.callId, { entry, parent, children: [] });
    if (parent !== undefined) (nodes.get(parent) as Node).children.push(entry.callId);
    else {
      const top = turns.get(entry.turnId);
      if (top) top.push(entry.callId);
      else turns.set(entry.turnId, [entry.callId]);
    }
  }

  // Which calls are shown: every one, or the matches and the calls on the way to them.
  const shown = visibleCalls(nodes, options.filter);
  const isShown = (id: string) => shown === undefined || shown.has(id);
  const matches = callMatcher(options.filter);

  const rows: ToolCallTreeRow[] = [];
  const turnList = [...turns].map(([turnId, top], i) => ({ turnId, top: top.filter(isShown), turnNumber: i + 1 })).filter((t) => t.top.length > 0);
  turnList.forEach(({ turnId, top, turnNumber }, t) => {
    const key = turnKey(turnId);
    const expanded = !collapsed.has(key);
    rows.push({ kind: 'turn', key, turnId, turnNumber, level: 1, position: t + 1, setSize: turnList.length, expanded, childCount: top.length });
    if (!expanded) return;
    // Depth-first with an explicit stack of sibling lists.
    const stack: { ids: string[]; at: number; level: number }[] = [{ ids: top, at: 0, level: 2 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { ids: string[]; at: number; level: number };
      if (frame.at >= frame.ids.length) {
        stack.pop();
        continue;
      }
      const id = frame.ids[frame.at++] as string;
      const node = nodes.get(id) as Node;
      const children = node.children.filter(isShown);
      const rowKey = callKey(id);
      const open = children.length === 0 ? undefined : !collapsed.has(rowKey);
      rows.push({
        kind: 'call',
        key: rowKey,
        callId: id,
        name: node.entry.name,
        turnId: node.entry.turnId,
        parentCallId: node.parent,
        level: frame.level,
        position: frame.at,
        setSize: frame.ids.length,
        expanded: open,
        childCount: children.length,
        match: matches(node.entry),
      });
      if (open) stack.push({ ids: children, at: 0, level: frame.level + 1 });
    }
  });
  return rows;
}

/** Whether a call matches `filter` (every call does without one). */
export function callMatcher(filter: ToolCallFilter | undefined): (entry: CallTreeEntry) => boolean {
  if (!isFiltering(filter)) return () => true;
  const statuses = filter?.statuses?.length ? new Set(filter.statuses) : undefined;
  const name = (filter?.name ?? '').trim().toLowerCase();
  return (entry) => (statuses === undefined || statuses.has(entry.status)) && (name === '' || entry.name.toLowerCase().includes(name));
}

/** `undefined` when every call is shown; else the matches and their ancestors. */
function visibleCalls(nodes: ReadonlyMap<string, Node>, filter: ToolCallFilter | undefined): Set<string> | undefined {
  if (!isFiltering(filter)) return undefined;
  const matches = callMatcher(filter);
  const shown = new Set<string>();
  for (const [id, node] of nodes) {
    if (!matches(node.entry)) continue;
    // Up to the first call already shown: each call is added once, so this is linear overall.
    for (let at: string | undefined = id; at !== undefined && !shown.has(at); at = nodes.get(at)?.parent) shown.add(at);
  }
  return shown;
}

/**
 * The row a call row is nested under (its parent call, or its turn), by scanning back: the
 * nearest row one level up. `-1` for a turn row.
 */
export function parentRowIndex(rows: readonly ToolCallTreeRow[], index: number): number {
  const level = rows[index]?.level ?? 1;
  for (let i = index - 1; i >= 0; i--) if ((rows[i] as ToolCallTreeRow).level < level) return i;
  return -1;
}
