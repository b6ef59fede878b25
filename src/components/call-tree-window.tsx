/**
 * The windowing of `<ToolCallList>`'s rows (@tanstack/react-virtual), in a module of its own so
 * that an app loads it only when a list nears `windowAfter` rows (see docs/architecture.md,
 * "What loads when"): most sessions never do, and the windowing is about 11 kB of the list's weight.
 *
 * It renders nothing. It decides which rows are mounted and tells the grid, which renders them
 * in the same place either way: rows keep their state (an open output, a card's own fields) when
 * the list starts or stops windowing.
 */
import { defaultRangeExtractor, measureElement, observeElementRect, useVirtualizer, type Range, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, type RefObject } from 'react';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';

/** What the grid needs from the windowing to render its rows. */
export interface CallTreeWindowView {
  /** The rows to mount, by index, in order. */
  indexes: readonly number[];
  /** Each mounted row's ref: measures it and writes its position. */
  measure: (element: Element | null) => void;
  /** The row group's ref: the windowing writes its height. */
  container: (element: HTMLElement | null) => void;
}

/** What the grid's keyboard asks of the windowing. */
export interface CallTreeWindowHandle {
  scrollToIndex: (index: number) => void;
  /** Rows in view (a page), when known. */
  page: () => number | undefined;
}

export interface CallTreeWindowProps {
  count: number;
  estimateSize: (index: number) => number;
  getItemKey: (index: number) => string | number;
  /** Always mounted, wherever it is: a focused row that scrolls away keeps its focus. */
  activeIndex: number;
  gridRef: RefObject<HTMLDivElement | null>;
  handle: { current: CallTreeWindowHandle | null };
  onView: (view: CallTreeWindowView | null) => void;
}

/** The box's size before it is measured (and on the server), and where nothing is laid out (jsdom, a hidden panel). */
export const UNMEASURED: Rect = { width: 0, height: 800 };
export const OVERSCAN = 3;

// A row measured at 0 has no layout (a row always has some height): keep its estimate.
const measureRow = (element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>) =>
  measureElement(element, entry, instance) || instance.options.estimateSize(instance.indexFromElement(element));
const observeRect = (instance: Virtualizer<HTMLDivElement, Element>, report: (rect: Rect) => void) =>
  observeElementRect(instance, (rect) => report(rect.width === 0 && rect.height === 0 ? UNMEASURED : rect));

export default function CallTreeWindow({ count, estimateSize, getItemKey, activeIndex, gridRef, handle, onView }: CallTreeWindowProps) {
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeIndex >= range.count || indexes.includes(activeIndex)) return indexes;
      return activeIndex < (indexes[0] ?? 0) ? [activeIndex, ...indexes] : [...indexes, activeIndex];
    },
    [activeIndex],
  );
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => gridRef.current,
    estimateSize,
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN,
    // Rows are moved by writing their transform, not by rendering them again on each scroll.
    directDomUpdates: true,
    initialRect: UNMEASURED,
    observeElementRect: observeRect,
    measureElement: measureRow,
  });
  const indexes = virtualizer.getVirtualItems().map((item) => item.index);
  const key = indexes.join(',');
  const last = useRef<string | null>(null);
  // Before the report below, so that a remount (StrictMode) ends with the view reported.
  useIsomorphicLayoutEffect(() => {
    handle.current = {
      scrollToIndex: (index) => virtualizer.scrollToIndex(index, { align: 'auto' }),
      page: () => (virtualizer.range ? Math.max(1, virtualizer.range.endIndex - virtualizer.range.startIndex) : undefined),
    };
    return () => {
      handle.current = null;
      last.current = null;
      onView(null);
    };
  }, []);
  useIsomorphicLayoutEffect(() => {
    if (last.current === key) return;
    last.current = key;
    onView({ indexes, measure: virtualizer.measureElement, container: virtualizer.containerRef });
  });
  return null;
}
