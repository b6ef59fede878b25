import { useCallback, useMemo, useState } from 'react';
import { callOf } from '../core/stream/reducer';
import type { ToolStreamStore, ToolStreamStoreState } from '../core/stream/store';
import { callKey, callMatcher, createEntrySelector, flattenCallTree, isFiltering, type CallTreeEntry, type ToolCallFilter, type ToolCallTreeRow } from '../core/stream/call-tree';
import { useToolCalls } from './use-tool-call';

/**
 * Options of {@link useToolCallTree}.
 *
 * @example
 * const options: UseToolCallTreeOptions = { filter: { statuses: ['issued'] }, defaultCollapsed: ['research-1'] };
 */
export interface UseToolCallTreeOptions {
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** Which calls to show (every call by default). */
  filter?: ToolCallFilter | undefined;
  /** Calls whose nested calls start hidden, by call id. */
  defaultCollapsed?: readonly string[];
}

/**
 * What {@link useToolCallTree} returns: the rows to show and how to open and close them.
 *
 * @example
 * const { rows, toggle }: ToolCallTree = useToolCallTree();
 */
export interface ToolCallTree {
  /** Turns, their calls and the calls nested in them, flattened in the order a list shows them. */
  rows: readonly ToolCallTreeRow[];
  /** Calls in the session, and those that match the filter (all of them without one). */
  total: number;
  matching: number;
  /** The session has closed (its calls are dropped). */
  closed: boolean;
  /** Show (`true`) or hide what is under a row: a turn's calls, or the calls nested in a call. */
  setExpanded(key: string, expanded: boolean): void;
  /** Show what is under a row if hidden, hide it if shown. */
  toggle(key: string): void;
}

const selectClosed = (s: ToolStreamStoreState) => s.closed;

/**
 * The session's calls as a tree, flattened to rows: each turn, its calls in the order they
 * began, and under each call the calls a sub-agent made inside it (`parentCallId`), each with
 * its level, place and number of siblings (what `aria-level`, `aria-posinset` and
 * `aria-setsize` announce). Rows under a collapsed row are left out. With a `filter`, only
 * matching calls are shown, with the calls that lead to them. Re-renders when a call begins or
 * moves in the tree (and, while filtering by status, when a status changes), not while
 * arguments stream. The headless part of `<ToolCallList>`.
 *
 * @example
 * function Outline() {
 *   const { rows, toggle } = useToolCallTree({ filter: { name: 'search' } });
 *   return (
 *     <ul>
 *       {rows.map((row) => (
 *         <li key={row.key} style={{ marginInlineStart: `${row.level}rem` }}>
 *           {row.kind === 'turn' ? `Turn ${row.turnNumber}` : row.name}
 *           {row.kind === 'call' && row.expanded !== undefined && <button onClick={() => toggle(row.key)}>{row.expanded ? 'Hide' : 'Show'}</button>}
 *         </li>
 *       ))}
 *     </ul>
 *   );
 * }
 */
export function useToolCallTree(options: UseToolCallTreeOptions = {}): ToolCallTree {
  const { store, filter, defaultCollapsed } = options;
  const statusKey = (filter?.statuses ?? []).join(' ');
  const nameKey = filter?.name ?? '';
  const select = useMemo(() => {
    const entries = createEntrySelector(statusKey !== '');
    return (s: ToolStreamStoreState) => entries(s.order, (id) => callOf(s, id));
  }, [statusKey]);
  const entries = useToolCalls<readonly CallTreeEntry[]>(select, Object.is, store);
  const closed = useToolCalls(selectClosed, Object.is, store);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set((defaultCollapsed ?? []).map(callKey)));
  const shape = useMemo<ToolCallFilter | undefined>(
    () => (statusKey === '' && nameKey === '' ? undefined : { statuses: statusKey === '' ? [] : (statusKey.split(' ') as ToolCallFilter['statuses']), name: nameKey }),
    [statusKey, nameKey],
  );
  const rows = useMemo(() => flattenCallTree(entries, { collapsed, filter: shape }), [entries, collapsed, shape]);
  const matching = useMemo(() => {
    if (!isFiltering(shape)) return entries.length;
    const matches = callMatcher(shape);
    return entries.reduce((n, entry) => (matches(entry) ? n + 1 : n), 0);
  }, [entries, shape]);
  const setExpanded = useCallback((key: string, expanded: boolean) => {
    setCollapsed((previous) => {
      if (previous.has(key) === !expanded) return previous;
      const next = new Set(previous);
      if (expanded) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);
  const toggle = useCallback((key: string) => setCollapsed((previous) => {
    const next = new Set(previous);
    if (!next.delete(key)) next.add(key);
    return next;
  }), []);
  return { rows, total: entries.length, matching, closed, setExpanded, toggle };
}
