/**
 * The session's events in order, as the recorder kept them: each a button that opens its call's
 * history at that step; refused frames say why. The panel gives it only the latest entries, so a
 * long session costs the panel no more than a short one, and each row is drawn again only when
 * its entry or its selection changed: a frame of a streaming session draws the rows it added, not
 * the 300 it shows.
 */
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import type { DevtoolsEntry } from './recorder';
import { isRefused } from './entry-filter';
import { styles } from './devtools-styles';

/** Props of {@link EventsList}. */
export interface EventsListProps {
  readonly entries: readonly DevtoolsEntry[];
  readonly selected: number | undefined;
  readonly onSelect: (entry: DevtoolsEntry) => void;
  /** Earlier entries match too but are not shown (only the latest are). */
  readonly more?: boolean;
}

const outcomeOf = (entry: DevtoolsEntry): string => {
  if (entry.source === 'error') return 'error';
  if (entry.verdict === undefined) return entry.source;
  return entry.verdict.outcome;
};

/**
 * The events list of `<ToolgateDevtools>`.
 *
 * @example
 * <EventsList entries={latestEntries(entries, length, filter, 300).shown} selected={index} onSelect={(entry) => open(entry)} />
 */
export function EventsList({ entries, selected, onSelect, more = false }: EventsListProps) {
  // One handler for every row, the same across renders (the panel's changes each render): a
  // row's props then change only with its entry or its selection.
  const latest = useRef(onSelect);
  useLayoutEffect(() => {
    latest.current = onSelect;
  });
  const choose = useCallback((entry: DevtoolsEntry) => latest.current(entry), []);
  return (
    <div>
      <p style={styles.muted} aria-live="polite">
        {entries.length === 0 ? 'No events.' : more ? `The latest ${entries.length} events (earlier ones match too).` : `${entries.length} events.`}
      </p>
      <ol style={styles.list} aria-label="Events">
        {entries.map((entry) => (
          <EventRow key={entry.index} entry={entry} selected={entry.index === selected} onSelect={choose} />
        ))}
      </ol>
    </div>
  );
}

const EventRow = memo(function EventRow({ entry, selected, onSelect }: { entry: DevtoolsEntry; selected: boolean; onSelect: (entry: DevtoolsEntry) => void }) {
  const refused = isRefused(entry);
  return (
    <li>
      <button
        type="button"
        data-entry={entry.index}
        aria-current={selected ? 'true' : undefined}
        style={{ ...styles.row, ...(selected ? styles.rowSelected : {}), ...(refused ? styles.refused : {}) }}
        onClick={() => onSelect(entry)}
      >
        {`#${entry.index} ${entry.type}${entry.callId === undefined ? '' : ` ${entry.callId}`} · ${outcomeOf(entry)}`}
        {refused && entry.reason !== undefined ? ` · refused: ${entry.reason}` : ''}
      </button>
    </li>
  );
});
