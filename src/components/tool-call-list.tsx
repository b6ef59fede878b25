import { forwardRef, useCallback, useId, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { TOOL_CALL_STATUSES, type ToolCallStatus } from '../core/stream/call-status';
import { callOf } from '../core/stream/reducer';
import type { ToolStreamStore, ToolStreamStoreState } from '../core/stream/store';
import { isFiltering, type ToolCallFilter, type ToolCallTreeRow } from '../core/stream/call-tree';
import { useToolgateStore } from '../provider/context';
import { formatNumber, statusText, useLabels } from '../wording/labels';
import type { ToolgateClock } from '../hooks/use-now';
import type { ToolRenderers } from '../provider/tool-renderers';
import { useToolCalls } from '../hooks/use-tool-call';
import { useToolCallTree } from '../hooks/use-tool-call-tree';
import type { ArgumentsSchema } from './arguments-preview';
import { CallTreeGrid } from './call-tree-grid';
import { cx } from './cx';
import { ToolCallView } from './tool-call-view';
import { ToolStatusAnnouncer } from './tool-status-announcer';

/**
 * Props of {@link ToolCallList}.
 *
 * @example
 * <ToolCallList schemas={{ search: searchSchema }} outputSchemas={{ search: searchResultsSchema }} throttleMs={2000} filterControls defaultFilter={{ statuses: ['issued'] }} renderCall={(id, name) => name === 'chart' ? <ChartCall callId={id} /> : undefined} />
 */
export interface ToolCallListProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** JSON Schemas of the tools' arguments, by tool name. */
  schemas?: Readonly<Record<string, ArgumentsSchema>>;
  /** JSON Schemas of the tools' outputs, by tool name: their titles label each output's fields. */
  outputSchemas?: Readonly<Record<string, ArgumentsSchema>>;
  /** Render a call your own way (default: its tool's renderer, else `<ToolCallCard>`). */
  renderCall?: (callId: string, name: string) => ReactNode;
  /** Each tool's own view, by tool name, before the provider's; other tools get `<ToolCallCard>`. See `defineToolRenderer`. */
  renderers?: ToolRenderers;
  /** Include a `<ToolStatusAnnouncer>` (default true; render only one per session). */
  announce?: boolean;
  /** How often the announcer may speak (ms). */
  throttleMs?: number;
  clock?: ToolgateClock;
  /** Which calls to show, controlled (with `onFilterChange`); calls that lead to a match are shown too. */
  filter?: ToolCallFilter;
  /** The filter to start with, when `filter` is not controlled. */
  defaultFilter?: ToolCallFilter;
  /** Told of each change the filter controls make. */
  onFilterChange?: (filter: ToolCallFilter) => void;
  /** Show the filter controls above the calls: a tool name field and a status choice (default false). */
  filterControls?: boolean;
  /**
   * Above this many rows (turns and calls shown), only the rows in view are mounted, in a box
   * that scrolls (`--toolgate-list-height`, default 70vh). Default 30: a long session stays as
   * fast as a short one. `Infinity` mounts every row.
   */
  windowAfter?: number;
  /** Calls whose nested calls start hidden, by call id. */
  defaultCollapsed?: readonly string[];
}

// Own keys only: a tool named `constructor` or `__proto__` gets no schema from the prototype.
const byName = (schemas: Readonly<Record<string, ArgumentsSchema>> | undefined, name: string) =>
  schemas && Object.hasOwn(schemas, name) ? schemas[name] : undefined;

// A key per store: a new session's calls never take over the views (and their state) of the old one's.
const storeKeys = new WeakMap<object, number>();
let stores = 0;
function keyOf(store: object): number {
  let key = storeKeys.get(store);
  if (key === undefined) storeKeys.set(store, (key = ++stores));
  return key;
}

/**
 * The session's calls in the order they began, grouped by turn, each as a `<ToolCallCard>`
 * (or its tool's renderer); the calls a sub-agent made inside a call are nested under it, and
 * any turn or call with calls inside can be closed. A treegrid for assistive technology: each
 * row says its level, its place and how many rows share it, and the arrow keys move between
 * rows (see the accessibility docs). Past `windowAfter` rows only the rows in view are mounted,
 * so ten thousand calls scroll as smoothly as ten, and the focused row stays mounted while it
 * scrolls away. Says when there are no calls yet, when none match the filter, and when the
 * session has closed. Re-renders when a call begins, not while calls stream.
 *
 * @example
 * <ToolgateProvider session={session}>
 *   <ToolCallList schemas={{ search: searchTool.parameters }} filterControls />
 * </ToolgateProvider>
 */
export const ToolCallList = forwardRef<HTMLElement, ToolCallListProps>(function ToolCallList(
  {
    store,
    schemas,
    outputSchemas,
    renderCall,
    renderers,
    announce = true,
    throttleMs,
    clock,
    filter: controlled,
    defaultFilter,
    onFilterChange,
    filterControls = false,
    windowAfter = 30,
    defaultCollapsed,
    className,
    ...rest
  },
  ref,
) {
  const labels = useLabels();
  const storeKey = keyOf(useToolgateStore(store));
  const [own, setOwn] = useState<ToolCallFilter>(defaultFilter ?? {});
  const filter = controlled ?? own;
  const changeFilter = (next: ToolCallFilter) => {
    if (controlled === undefined) setOwn(next);
    onFilterChange?.(next);
  };
  const tree = useToolCallTree({ store, filter, defaultCollapsed });
  const { rows, closed, total, matching, setExpanded, toggle } = tree;

  const renderCell = useCallback(
    (row: ToolCallTreeRow, labelId: string) =>
      row.kind === 'turn' ? (
        <button type="button" className="toolgate-turn-title" aria-expanded={row.expanded} onClick={() => toggle(row.key)}>
          <span aria-hidden="true">{row.expanded ? '▾' : '▸'}</span> {row.turnId ? labels.turn(row.turnNumber, row.turnId) : labels.noTurn}
        </button>
      ) : (
        <>
          <CallRowName callId={row.callId} name={row.name} id={labelId} store={store} />
          {renderCall ? (
            renderCall(row.callId, row.name)
          ) : (
            <ToolCallView
              callId={row.callId}
              store={store}
              clock={clock}
              renderers={renderers}
              schema={byName(schemas, row.name)}
              outputSchema={byName(outputSchemas, row.name)}
            />
          )}
          {row.expanded !== undefined && (
            <button type="button" className="toolgate-toggle toolgate-row-toggle" aria-expanded={row.expanded} onClick={() => toggle(row.key)}>
              {labels.list.inside(row.childCount, formatNumber(row.childCount, labels.locale))}
            </button>
          )}
        </>
      ),
    [labels, toggle, store, renderCall, clock, renderers, schemas, outputSchemas],
  );

  return (
    <section
      aria-label={labels.calls}
      {...rest}
      ref={ref}
      className={cx('toolgate-list', className)}
      data-state={closed ? 'closed' : total > 0 ? 'open' : 'empty'}
    >
      {announce && <ToolStatusAnnouncer store={store} throttleMs={throttleMs} clock={clock} />}
      {filterControls && !closed && <ListFilter filter={filter} onChange={changeFilter} matching={matching} total={total} />}
      {closed || total === 0 ? (
        <p className="toolgate-list-empty">{closed ? labels.closed : labels.empty}</p>
      ) : rows.length === 0 ? (
        <p className="toolgate-list-empty">{labels.list.noMatch}</p>
      ) : (
        <CallTreeGrid key={storeKey} rows={rows} windowed={rows.length > windowAfter} preload={rows.length * 2 > windowAfter} label={labels.calls} renderCell={renderCell} setExpanded={setExpanded} toggle={toggle} />
      )}
    </section>
  );
});

/** A call row's accessible name: its tool and what its status says (hidden; the row points to it). */
function CallRowName({ callId, name, id, store }: { callId: string; name: string; id: string; store: ToolStreamStore | undefined }) {
  const labels = useLabels();
  const select = useCallback(
    (s: ToolStreamStoreState) => {
      const call = callOf(s, callId);
      return call ? statusText(labels, call) : '';
    },
    [callId, labels],
  );
  const status = useToolCalls(select, Object.is, store);
  return (
    <span id={id} hidden>
      {labels.list.row(name, status)}
    </span>
  );
}

function ListFilter({ filter, onChange, matching, total }: { filter: ToolCallFilter; onChange: (filter: ToolCallFilter) => void; matching: number; total: number }) {
  const labels = useLabels();
  const id = useId();
  const status = filter.statuses?.length === 1 ? (filter.statuses[0] as ToolCallStatus) : '';
  return (
    <div role="search" className="toolgate-list-filter">
      <label htmlFor={`${id}n`}>{labels.list.filterName}</label>
      <input id={`${id}n`} type="search" value={filter.name ?? ''} onChange={(event) => onChange({ ...filter, name: event.currentTarget.value })} />
      <label htmlFor={`${id}s`}>{labels.list.filterStatus}</label>
      <select
        id={`${id}s`}
        value={status}
        onChange={(event) => onChange({ ...filter, statuses: event.currentTarget.value ? [event.currentTarget.value as ToolCallStatus] : [] })}
      >
        <option value="">{labels.list.anyStatus}</option>
        {TOOL_CALL_STATUSES.map((s) => (
          <option key={s} value={s}>
            {labels.status[s]}
          </option>
        ))}
      </select>
      {isFiltering(filter) && (
        <output className="toolgate-list-count">{labels.list.matching(formatNumber(matching, labels.locale), formatNumber(total, labels.locale), matching)}</output>
      )}
    </div>
  );
}
