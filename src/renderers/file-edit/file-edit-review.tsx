/**
 * `<FileEditReview>`: a proposed file edit as a diff (unified or side by side), where a person keeps
 * or discards each hunk. What is kept becomes new arguments (`keepHunks`), handed to `onChange`;
 * the tool's renderer (`file-edit-renderer.tsx`) sends them through the confirmation's edit path,
 * so they are checked and fingerprinted again and are exactly what runs (docs/architecture.md,
 * "From the dialog to a run").
 *
 * Keyboard: each hunk's heading is one stop of a roving focus (Tab reaches the active one, then
 * its Keep and Discard buttons). On a heading or its buttons: `j` or Down moves to the next hunk,
 * `k` or Up to the previous, Home and End to the first and last; `y` keeps the hunk, `n` discards
 * it. Past `windowAfter` rows only the rows in view are mounted (@tanstack/react-virtual, as the
 * call list does), and the active hunk's heading always is, so focus is never lost.
 */
import { defaultRangeExtractor, measureElement, observeElementRect, useVirtualizer, type Range, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { createContext, forwardRef, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from '../../components/cx';
import { useIsomorphicLayoutEffect } from '../../hooks/use-isomorphic-layout-effect';
import { keepHunks, keptHunksOf, readFileEdit, type FileEditArguments, type FileEditHunk } from './file-edit-hunks';
import { splitRows, unifiedRows, type DiffCell, type DiffRow } from './file-edit-rows';

/**
 * How `<FileEditReview>` lays a diff out: one column (`unified`) or old and new side by side (`split`).
 *
 * @example
 * const view: FileEditView = 'split';
 */
export type FileEditView = 'unified' | 'split';

/**
 * The words of `<FileEditReview>`, for another language or tone.
 *
 * @example
 * const labels: Partial<FileEditLabels> = { keep: 'Garder', discard: 'Écarter' };
 */
export interface FileEditLabels {
  /** The accessible name of the diff's scroll box. */
  region: (path: string) => string;
  /** A hunk's heading, as a screen reader names it. */
  hunk: (position: number, total: number, kept: boolean, oldStart: number) => string;
  keep: string;
  discard: string;
  keepHunk: (position: number) => string;
  discardHunk: (position: number) => string;
  view: string;
  unified: string;
  split: string;
  /** The keys, said once under the toolbar. */
  keys: string;
  summary: (kept: number, total: number) => string;
  /** Said after a person keeps or discards a hunk. */
  changed: (position: number, kept: boolean, keptCount: number, total: number) => string;
  noChanges: string;
  /** Said when an edit has too many changes to find each one quickly, and shows as one. */
  coarse: string;
  before: string;
  after: string;
  /** Said before a removed or an added line (the sign is only seen). */
  removed: string;
  added: string;
}

const DEFAULT_LABELS: FileEditLabels = {
  region: (path) => `Changes to ${path}`,
  hunk: (position, total, kept, oldStart) => `Change ${position} of ${total}, at line ${oldStart}, ${kept ? 'kept' : 'discarded'}`,
  keep: 'Keep',
  discard: 'Discard',
  keepHunk: (position) => `Keep change ${position}`,
  discardHunk: (position) => `Discard change ${position}`,
  view: 'Diff layout',
  unified: 'Unified',
  split: 'Split',
  keys: 'On a change: j or Down for the next, k or Up for the previous, y keeps it, n discards it.',
  summary: (kept, total) => `${kept} of ${total} ${total === 1 ? 'change' : 'changes'} kept`,
  changed: (position, kept, keptCount, total) => `Change ${position} ${kept ? 'kept' : 'discarded'}; ${keptCount} of ${total} kept`,
  noChanges: 'No changes',
  coarse: 'Too many changes to show one by one: the edit is one change, from the first changed line to the last.',
  before: 'Before',
  after: 'After',
  removed: 'removed: ',
  added: 'added: ',
};

/**
 * The props of `<FileEditReview>`.
 *
 * @example
 * const props: FileEditReviewProps = { arguments: { path: 'a.txt', oldText: 'a\n', newText: 'b\n' }, onChange: (next) => submit(next) };
 */
export interface FileEditReviewProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onChange'> {
  /** The edit as proposed: `{ path, oldText, newText }` or `{ path, patch }`. */
  arguments: unknown;
  /** The arguments now, after an edit was saved: which hunks they keep is read from them. The proposed ones by default. */
  current?: unknown;
  /** A person kept or discarded a hunk: the arguments that keep what is kept, and which hunks are. */
  onChange?: (next: FileEditArguments, kept: readonly boolean[]) => void;
  /** Show the decisions without letting anyone change them (after approval, or in a card without an approval). */
  readOnly?: boolean;
  /** The layout; uncontrolled (`defaultView`, `unified` by default) unless given. */
  view?: FileEditView;
  defaultView?: FileEditView;
  onViewChange?: (view: FileEditView) => void;
  /** Past this many rows only the rows in view (and a margin) are in the page. 2,000 by default. */
  windowAfter?: number;
  /** The scroll box's greatest height (any CSS length); 24rem by default. */
  maxHeight?: string;
  labels?: Partial<FileEditLabels>;
  /**
   * Colour the code by its file's extension (JavaScript, TypeScript, JSON, Python, CSS, HTML/XML,
   * shell). Off by default; when on, lowlight (an optional peer, with highlight.js 11) is loaded
   * by `import()` the first time, so an app that never turns it on never loads it. Lines are plain
   * text until it has loaded, and for other languages.
   */
  highlight?: boolean;
}

type Colour = (text: string) => ReactNode;
/** The colouring of the review's lines, once loaded (`null`: plain text). */
const ColourContext = createContext<Colour | null>(null);
type SyntaxModule = typeof import('./syntax');
let syntaxModule: Promise<SyntaxModule> | undefined;
const loadSyntax = (): Promise<SyntaxModule> => (syntaxModule ??= import('./syntax'));

/** The colouring for `path`, once loaded, when `on`. */
function useColour(on: boolean, path: string): Colour | null {
  const [module, setModule] = useState<SyntaxModule | null>(null);
  useEffect(() => {
    if (!on) return;
    let live = true;
    loadSyntax().then(
      (loaded) => live && setModule(loaded),
      // Not installed, or failed to load: the lines stay plain text.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [on]);
  return useMemo(() => {
    if (!on || module === null) return null;
    const language = module.languageOf(path);
    return language === undefined ? null : (text: string) => module.colourLine(text, language);
  }, [on, module, path]);
}

function LineText({ text }: { text: string }) {
  const colour = useContext(ColourContext);
  return (
    <span className="toolgate-file-edit-text" data-coloured={colour ? '' : undefined}>
      {colour ? colour(text) : text}
    </span>
  );
}

// Estimates before a row is measured; the heading holds buttons, so it is taller.
const LINE_PX = 19;
const HEAD_PX = 34;
const UNMEASURED: Rect = { width: 0, height: 600 };
const measureRow = (element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>) =>
  measureElement(element, entry, instance) || instance.options.estimateSize(instance.indexFromElement(element));
const observeRect = (instance: Virtualizer<HTMLDivElement, Element>, report: (rect: Rect) => void) =>
  observeElementRect(instance, (rect) => report(rect.width === 0 && rect.height === 0 ? UNMEASURED : rect));

/**
 * A proposed file edit as a diff, reviewed hunk by hunk: unified or split, keep or discard each
 * hunk by button or key, windowed for long files. Arguments that are not an edit show why.
 *
 * @example
 * <FileEditReview arguments={{ path: 'src/a.ts', oldText, newText }} onChange={(next) => setArgs(next)} />
 */
export const FileEditReview = forwardRef<HTMLDivElement, FileEditReviewProps>(function FileEditReview(
  { arguments: proposed, current, onChange, readOnly = false, view: givenView, defaultView = 'unified', onViewChange, windowAfter = 2000, maxHeight = '24rem', labels: given, highlight = false, className, ...rest },
  ref,
) {
  const labels = useMemo(() => ({ ...DEFAULT_LABELS, ...given }), [given]);
  const read = useMemo(() => readFileEdit(proposed), [proposed]);
  const [ownView, setOwnView] = useState<FileEditView>(defaultView);
  const view = givenView ?? ownView;
  const colour = useColour(highlight, read.ok ? read.edit.path : '');
  const setView = (next: FileEditView) => {
    if (givenView === undefined) setOwnView(next);
    onViewChange?.(next);
  };
  if (!read.ok) {
    return (
      <div ref={ref} className={cx('toolgate-file-edit', className)} data-invalid="" {...rest}>
        <p role="alert" className="toolgate-file-edit-invalid">
          {read.reason}
        </p>
      </div>
    );
  }
  const { edit } = read;
  return (
    <div ref={ref} className={cx('toolgate-file-edit', className)} data-view={view} {...rest}>
      <ColourContext.Provider value={colour}>
      <Review
        hunks={edit.hunks}
        path={edit.path}
        coarse={edit.coarse}
        view={view}
        setView={setView}
        labels={labels}
        readOnly={readOnly}
        windowAfter={windowAfter}
        maxHeight={maxHeight}
        derive={() => keptHunksOf(edit, current === undefined ? edit.arguments : current)}
        derivedFrom={current}
        onDecide={(kept) => onChange?.(keepHunks(edit, kept), kept)}
      />
      </ColourContext.Provider>
    </div>
  );
});

interface ReviewProps {
  hunks: readonly FileEditHunk[];
  path: string;
  coarse: boolean;
  view: FileEditView;
  setView: (view: FileEditView) => void;
  labels: FileEditLabels;
  readOnly: boolean;
  windowAfter: number;
  maxHeight: string;
  /** Which hunks the current arguments keep. */
  derive: () => boolean[];
  /** What `derive` reads: a new value replaces a person's decisions not yet saved. */
  derivedFrom: unknown;
  onDecide: (kept: boolean[]) => void;
}

function Review({ hunks, path, coarse, view, setView, labels, readOnly, windowAfter, maxHeight, derive, derivedFrom, onDecide }: ReviewProps) {
  const baseId = useId();
  const derived = useMemo(derive, [derivedFrom, hunks]);
  // A person's decisions show at once; once saved, the arguments they made say the same.
  const [local, setLocal] = useState<{ kept: boolean[]; base: unknown }>();
  // The decisions handed to onChange since the arguments last agreed with the person's: while the
  // saved arguments are one of these (an earlier draft saved, a later one on its way), the person's
  // own decisions stay shown; arguments changed from elsewhere (back to the proposed ones) win.
  const handed = useRef<string[]>([]);
  const derivedKey = keyOf(derived);
  const ahead = local !== undefined && derivedKey !== keyOf(local.kept) && (local.base === derivedFrom || handed.current.includes(derivedKey));
  const kept = ahead ? local.kept : derived;
  useEffect(() => {
    if (local !== undefined && !ahead) {
      setLocal(undefined);
      handed.current = [];
    }
  }, [local, ahead]);
  const keptCount = kept.filter(Boolean).length;
  const [active, setActive] = useState(0);
  const [said, setSaid] = useState('');
  const rows = useMemo(() => (view === 'split' ? splitRows(hunks) : unifiedRows(hunks)), [view, hunks]);
  const headRow = useMemo(() => {
    const at: number[] = [];
    rows.forEach((row, i) => {
      if (row.kind === 'hunk') at[row.hunk] = i;
    });
    return at;
  }, [rows]);
  const windowed = rows.length > windowAfter;
  const box = useRef<HTMLDivElement>(null);
  const pending = useRef<number | null>(null);

  const activeRow = headRow[active] ?? 0;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeRow >= range.count || indexes.includes(activeRow)) return indexes;
      return activeRow < (indexes[0] ?? 0) ? [activeRow, ...indexes] : [...indexes, activeRow];
    },
    [activeRow],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => box.current,
    estimateSize: (i) => (rows[i]?.kind === 'hunk' ? HEAD_PX : LINE_PX),
    rangeExtractor,
    overscan: 20,
    enabled: windowed,
    initialRect: UNMEASURED,
    observeElementRect: observeRect,
    measureElement: measureRow,
  });

  const flushFocus = () => {
    const want = pending.current;
    if (want === null) return;
    const head = box.current?.querySelector<HTMLElement>(`[data-hunk-head="${want}"]`);
    if (!head) return;
    pending.current = null;
    head.focus({ preventScroll: windowed });
  };
  useIsomorphicLayoutEffect(flushFocus);
  const moveTo = (index: number) => {
    const target = Math.max(0, Math.min(hunks.length - 1, index));
    setActive(target);
    pending.current = target;
    if (windowed) virtualizer.scrollToIndex(headRow[target] ?? 0, { align: 'start' });
    flushFocus();
  };
  const decide = (index: number, keep: boolean) => {
    if (readOnly || kept[index] === keep) return;
    const next = kept.map((k, i) => (i === index ? keep : k));
    setLocal({ kept: next, base: derivedFrom });
    handed.current.push(keyOf(next));
    setSaid(labels.changed(index + 1, keep, next.filter(Boolean).length, hunks.length));
    onDecide(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.metaKey || event.ctrlKey) return;
    const head = (event.target as HTMLElement).closest<HTMLElement>('[data-hunk-head]');
    if (head === null) return;
    const index = Number(head.dataset['hunkHead']);
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        moveTo(index + 1);
        break;
      case 'ArrowUp':
      case 'k':
        moveTo(index - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(hunks.length - 1);
        break;
      case 'y':
        decide(index, true);
        break;
      case 'n':
        decide(index, false);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const renderRow = (row: DiffRow, index: number): ReactNode => {
    if (row.kind === 'hunk') {
      const hunk = hunks[row.hunk] as FileEditHunk;
      const isKept = kept[row.hunk] !== false;
      const position = row.hunk + 1;
      const focusable = row.hunk === active;
      return (
        <div
          role="group"
          aria-label={labels.hunk(position, hunks.length, isKept, hunk.oldStart)}
          className="toolgate-file-edit-head"
          data-hunk-head={row.hunk}
          data-kept={isKept ? 'true' : 'false'}
          tabIndex={focusable ? 0 : -1}
          onFocus={() => setActive(row.hunk)}
        >
          <code className="toolgate-file-edit-range" aria-hidden="true">
            @@ -{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
          </code>
          {!readOnly && (
            <span className="toolgate-file-edit-decide">
              <button type="button" className="toolgate-button" tabIndex={focusable ? 0 : -1} aria-pressed={isKept} aria-label={labels.keepHunk(position)} onClick={() => decide(row.hunk, true)}>
                {labels.keep}
              </button>
              <button type="button" className="toolgate-button" tabIndex={focusable ? 0 : -1} aria-pressed={!isKept} aria-label={labels.discardHunk(position)} onClick={() => decide(row.hunk, false)}>
                {labels.discard}
              </button>
            </span>
          )}
          {readOnly && <span className="toolgate-file-edit-state">{isKept ? labels.keep : labels.discard}</span>}
        </div>
      );
    }
    const isKept = kept[row.hunk] !== false;
    if (row.kind === 'note') {
      return (
        <div className="toolgate-file-edit-note" data-kept={isKept ? 'true' : 'false'}>
          {row.text}
        </div>
      );
    }
    if (row.kind === 'line') {
      return (
        <div className="toolgate-file-edit-line" data-type={row.type} data-kept={isKept ? 'true' : 'false'} data-row={index}>
          <span className="toolgate-file-edit-no" aria-hidden="true">
            {row.oldNo ?? ''}
          </span>
          <span className="toolgate-file-edit-no" aria-hidden="true">
            {row.newNo ?? ''}
          </span>
          <Sign type={row.type} labels={labels} />
          <LineText text={row.text} />
        </div>
      );
    }
    return (
      <div className="toolgate-file-edit-pair" data-kept={isKept ? 'true' : 'false'} data-row={index}>
        <Cell cell={row.left} labels={labels} />
        <Cell cell={row.right} labels={labels} />
      </div>
    );
  };

  const items = windowed ? virtualizer.getVirtualItems() : null;
  const hint = `${baseId}keys`;
  return (
    <>
      <div className="toolgate-file-edit-bar">
        <code className="toolgate-file-edit-path">{path}</code>
        <span className="toolgate-file-edit-summary">{hunks.length === 0 ? labels.noChanges : labels.summary(keptCount, hunks.length)}</span>
        <span role="group" aria-label={labels.view} className="toolgate-file-edit-views">
          <button type="button" className="toolgate-button" aria-pressed={view === 'unified'} onClick={() => setView('unified')}>
            {labels.unified}
          </button>
          <button type="button" className="toolgate-button" aria-pressed={view === 'split'} onClick={() => setView('split')}>
            {labels.split}
          </button>
        </span>
      </div>
      {coarse && <p className="toolgate-file-edit-keys">{labels.coarse}</p>}
      {hunks.length > 0 && (
        <p id={hint} className="toolgate-file-edit-keys">
          {labels.keys}
        </p>
      )}
      {view === 'split' && hunks.length > 0 && (
        <div className="toolgate-file-edit-sides" aria-hidden="true">
          <span>{labels.before}</span>
          <span>{labels.after}</span>
        </div>
      )}
      <div
        ref={box}
        role="region"
        aria-label={labels.region(path)}
        aria-describedby={hunks.length > 0 ? hint : undefined}
        className="toolgate-file-edit-rows"
        style={{ maxHeight }}
        data-windowed={windowed ? '' : undefined}
        onKeyDown={onKeyDown}
      >
        {items === null ? (
          rows.map((row, i) => <div key={i}>{renderRow(row, i)}</div>)
        ) : (
          <div style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
            {items.map((item) => (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="toolgate-file-edit-slot"
                style={{ position: 'absolute', top: 0, left: 0, minWidth: '100%', transform: `translateY(${item.start}px)` }}
              >
                {renderRow(rows[item.index] as DiffRow, item.index)}
              </div>
            ))}
          </div>
        )}
      </div>
      <div className="toolgate-sr-only" role="status">
        {said}
      </div>
    </>
  );
}

const keyOf = (kept: readonly boolean[]) => kept.map((k) => (k ? '1' : '0')).join('');

function Sign({ type, labels }: { type: ' ' | '-' | '+'; labels: FileEditLabels }) {
  return (
    <span className="toolgate-file-edit-sign">
      <span aria-hidden="true">{type}</span>
      {type !== ' ' && <span className="toolgate-sr-only">{type === '-' ? labels.removed : labels.added}</span>}
    </span>
  );
}

function Cell({ cell, labels }: { cell: DiffCell | undefined; labels: FileEditLabels }) {
  if (cell === undefined) return <span className="toolgate-file-edit-cell" data-empty="" />;
  return (
    <span className="toolgate-file-edit-cell" data-type={cell.type}>
      <span className="toolgate-file-edit-no" aria-hidden="true">
        {cell.no}
      </span>
      <Sign type={cell.type} labels={labels} />
      <LineText text={cell.text} />
    </span>
  );
}
