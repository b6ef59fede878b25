/**
 * The rows of `<ToolCallList>`: a one-column treegrid (WAI-ARIA APG "Treegrid", rows focused
 * first) whose rows are turns, calls and the calls nested in them. Long lists are windowed with
 * @tanstack/react-virtual: only the rows in view (and a few around them) are mounted, positioned
 * in a box as tall as all the rows, so ten thousand calls cost what a screenful costs. The
 * windowing is its own module (`call-tree-window.tsx`), loaded when a list nears `windowAfter`;
 * until it is there, a windowed list mounts the rows the windowing would mount first.
 *
 * Keyboard (APG treegrid): one tab stop, the active row (roving tabindex); Up and Down move
 * between rows, Home and End to the first and last, Page Up and Page Down by a page; Right opens
 * a closed row, or moves into the row's cell (the card, whose own controls Tab then reaches);
 * Left closes an open row, or moves to the row above it in the tree (from a cell, to its row);
 * Enter opens or closes. The row that holds the focus stays mounted when it scrolls out of view,
 * so the focus is never dropped to the page; a row that goes away while focused (closed above
 * it, filtered out) hands the focus to the row now in its place.
 */
import { lazy, memo, Suspense, useCallback, useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { parentRowIndex, type ToolCallTreeRow } from '../core/stream/call-tree';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';
import type { CallTreeWindowHandle, CallTreeWindowView } from './call-tree-window';

const loadWindow = () => import('./call-tree-window');
const CallTreeWindow = lazy(loadWindow);
let windowLoad: Promise<unknown> | undefined;
/** Start loading the windowing before a list needs it, so that it is there when the list passes `windowAfter`. */
export function preloadCallTreeWindow(): void {
  // A failed load is retried by the list itself when it renders the windowing.
  windowLoad ??= loadWindow().catch(() => (windowLoad = undefined));
}

export interface CallTreeGridProps {
  rows: readonly ToolCallTreeRow[];
  /** Mount only the rows in view. */
  windowed: boolean;
  /** Load the windowing now: the list is close to needing it. */
  preload?: boolean;
  label: string;
  /**
   * What the row's one cell shows. A call row is named by the element with id `labelId`, which
   * the cell renders (a short name and status, so a screen reader says that on reaching the row,
   * and the whole card once inside its cell).
   */
  renderCell: (row: ToolCallTreeRow, labelId: string) => ReactNode;
  setExpanded: (key: string, expanded: boolean) => void;
  toggle: (key: string) => void;
}

/** Marks the grid's own rows, so rows of a table inside a card are never taken for them. */
const ROW = 'data-toolgate-row';
const PAGE = 10;
// Estimates before a row is measured: turn headings are short, cards about this tall.
const TURN_HEIGHT = 40;
const CALL_HEIGHT = 180;
// The windowing's first view, before it is loaded (and on the server): the rows that fill an
// unmeasured box (800 px, as call-tree-window.tsx assumes) and three more, and the active row.
const FIRST_VIEW = 800;
const FIRST_OVERSCAN = 3;

// The active row stays mounted even in a view that has none in it (the windowing reports an empty
// range for a moment while a jump scroll lands): a focused row that went away would drop the focus.
function withActive(indexes: number[], activeIndex: number, count: number): number[] {
  if (activeIndex >= count || indexes.includes(activeIndex)) return indexes;
  return activeIndex < (indexes[0] ?? 0) ? [activeIndex, ...indexes] : [...indexes, activeIndex];
}

function firstRows(rows: readonly ToolCallTreeRow[], activeIndex: number): number[] {
  const indexes: number[] = [];
  let height = 0;
  for (let i = 0, extra = 0; i < rows.length; i++) {
    if (height >= FIRST_VIEW && ++extra > FIRST_OVERSCAN) break;
    indexes.push(i);
    height += rows[i]?.kind === 'turn' ? TURN_HEIGHT : CALL_HEIGHT;
  }
  if (activeIndex < rows.length && !indexes.includes(activeIndex)) indexes.push(activeIndex);
  return indexes;
}

export function CallTreeGrid({ rows, windowed, preload = false, label, renderCell, setExpanded, toggle }: CallTreeGridProps) {
  const baseId = useId();
  const gridRef = useRef<HTMLDivElement>(null);
  const indexOf = useMemo(() => new Map(rows.map((row, i) => [row.key, i])), [rows]);
  const [activeKey, setActiveKey] = useState<string>();
  // Where the active row was: when it goes away, the row now in its place takes over.
  const lastIndex = useRef(0);
  const found = activeKey === undefined ? undefined : indexOf.get(activeKey);
  const activeIndex = found ?? Math.max(0, Math.min(lastIndex.current, rows.length - 1));
  const pending = useRef<{ key: string; part: 'row' | 'cell' } | null>(null);
  const focusInside = useRef(false);

  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const estimateSize = useCallback((i: number) => (rows[i]?.kind === 'turn' ? TURN_HEIGHT : CALL_HEIGHT), [rows]);
  const [view, setView] = useState<CallTreeWindowView | null>(null);
  const windowHandle = useRef<CallTreeWindowHandle | null>(null);
  useIsomorphicLayoutEffect(() => {
    if (preload || windowed) preloadCallTreeWindow();
  }, [preload, windowed]);

  const rowElement = (key: string): HTMLElement | undefined => {
    const grid = gridRef.current;
    if (!grid) return undefined;
    for (const el of grid.querySelectorAll<HTMLElement>(`[${ROW}]`)) if (el.dataset['key'] === key) return el;
    return undefined;
  };
  const flushFocus = () => {
    const want = pending.current;
    if (want === null) return;
    const el = rowElement(want.key);
    if (!el) return;
    pending.current = null;
    const target = want.part === 'cell' ? (el.firstElementChild as HTMLElement | null) ?? el : el;
    // Windowed, the virtualizer has scrolled the row into view; a plain list lets the browser do it.
    target.focus({ preventScroll: windowed });
  };
  const moveTo = (index: number, part: 'row' | 'cell' = 'row') => {
    const target = Math.max(0, Math.min(rows.length - 1, index));
    const row = rows[target];
    if (!row) return;
    setActiveKey(row.key);
    lastIndex.current = target;
    pending.current = { key: row.key, part };
    if (windowed) windowHandle.current?.scrollToIndex(target);
    flushFocus();
  };
  // After each render: focus a row that was waiting to be mounted.
  useIsomorphicLayoutEffect(flushFocus);
  // A row that held the focus went away (closed above it, filtered out): the row in its place takes it.
  useIsomorphicLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid || !focusInside.current || rows.length === 0) return;
    const active = grid.ownerDocument.activeElement;
    if (active && grid.contains(active)) return;
    moveTo(activeIndex);
  }, [rows]);

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    focusInside.current = true;
    const row = (event.target as HTMLElement).closest<HTMLElement>(`[${ROW}]`);
    const key = row?.dataset['key'];
    if (key === undefined || key === activeKey) return;
    setActiveKey(key);
    lastIndex.current = indexOf.get(key) ?? lastIndex.current;
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) focusInside.current = false;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>(`[${ROW}]`);
    // Only the grid's own rows and cells: keys inside a card (a text field, a button) are the card's.
    const onRow = rowEl !== null && target === rowEl;
    const onCell = rowEl !== null && target === rowEl.firstElementChild;
    if (!rowEl || (!onRow && !onCell)) return;
    const index = indexOf.get(rowEl.dataset['key'] ?? '');
    if (index === undefined) return;
    const row = rows[index] as ToolCallTreeRow;
    const part = onCell ? 'cell' : 'row';
    const page = (windowed ? windowHandle.current?.page() : undefined) ?? PAGE;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(index + 1, part);
        break;
      case 'ArrowUp':
        moveTo(index - 1, part);
        break;
      case 'PageDown':
        moveTo(index + page, part);
        break;
      case 'PageUp':
        moveTo(index - page, part);
        break;
      case 'Home':
        moveTo(0, part);
        break;
      case 'End':
        moveTo(rows.length - 1, part);
        break;
      case 'ArrowRight':
        if (onCell) return;
        if (row.expanded === false) setExpanded(row.key, true);
        else moveTo(index, 'cell');
        break;
      case 'ArrowLeft':
        if (onCell) moveTo(index, 'row');
        else if (row.expanded === true) setExpanded(row.key, false);
        else if (parentRowIndex(rows, index) >= 0) moveTo(parentRowIndex(rows, index));
        else return;
        break;
      case 'Enter':
        if (!onRow || row.expanded === undefined) return;
        toggle(row.key);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  // Rows are rendered here in both modes (the windowing only says which), so they keep their state when it starts.
  const windowView = windowed ? view : null;
  const mounted = !windowed ? rows.map((_, i) => i) : windowView ? withActive(windowView.indexes.filter((i) => i < rows.length), activeIndex, rows.length) : firstRows(rows, activeIndex);
  return (
    <div
      role="treegrid"
      aria-label={label}
      aria-rowcount={rows.length}
      ref={gridRef}
      className="toolgate-list-rows"
      data-windowed={windowed ? '' : undefined}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <div role="rowgroup" ref={windowView?.container} className="toolgate-list-rowgroup">
        {mounted.map((i) => {
          const row = rows[i] as ToolCallTreeRow;
          return (
            <TreeRow
              key={row.key}
              row={row}
              index={i}
              active={i === activeIndex}
              labelId={`${baseId}r${i}`}
              measure={windowView?.measure}
              renderCell={renderCell}
            />
          );
        })}
      </div>
      {windowed && (
        // After the rows: their refs are in place when the windowing's effects first measure them.
        <Suspense fallback={null}>
          <CallTreeWindow
            count={rows.length}
            estimateSize={estimateSize}
            getItemKey={getItemKey}
            activeIndex={activeIndex}
            gridRef={gridRef}
            handle={windowHandle}
            onView={setView}
          />
        </Suspense>
      )}
    </div>
  );
}

interface TreeRowProps {
  row: ToolCallTreeRow;
  index: number;
  active: boolean;
  labelId: string;
  measure: ((element: Element | null) => void) | undefined;
  renderCell: (row: ToolCallTreeRow, labelId: string) => ReactNode;
}

const sameRow = (a: ToolCallTreeRow, b: ToolCallTreeRow) =>
  a === b ||
  (a.key === b.key && a.level === b.level && a.position === b.position && a.setSize === b.setSize && a.expanded === b.expanded && a.childCount === b.childCount &&
    (a.kind === 'turn' ? b.kind === 'turn' && a.turnNumber === b.turnNumber : b.kind === 'call' && a.match === b.match && a.name === b.name));

// A row renders again only when what it shows changed: rows rebuilt for a new call elsewhere, or
// moved by the virtualizer (which writes their position itself), are skipped.
const TreeRow = memo(
  function TreeRow({ row, index, active, labelId, measure, renderCell }: TreeRowProps) {
    return (
      <div
        {...{ [ROW]: '' }}
        role="row"
        ref={measure}
        data-index={index}
        data-key={row.key}
        data-kind={row.kind}
        data-match={row.kind === 'call' && !row.match ? 'context' : undefined}
        className="toolgate-row"
        aria-level={row.level}
        aria-posinset={row.position}
        aria-setsize={row.setSize}
        aria-expanded={row.expanded}
        aria-rowindex={index + 1}
        aria-labelledby={row.kind === 'call' ? labelId : undefined}
        tabIndex={active ? 0 : -1}
      >
        <div role="gridcell" className="toolgate-row-cell" tabIndex={-1} style={{ ['--toolgate-depth' as string]: row.level - 1 }}>
          {renderCell(row, labelId)}
        </div>
      </div>
    );
  },
  (a, b) => a.index === b.index && a.active === b.active && a.labelId === b.labelId && a.measure === b.measure && a.renderCell === b.renderCell && sameRow(a.row, b.row),
);
