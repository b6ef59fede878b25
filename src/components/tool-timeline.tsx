import { forwardRef, useId, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { formatDuration, formatTime, statusText, useLabels } from '../wording/labels';
import { useToolTimeline, type ToolTimelineRow, type UseToolTimelineOptions } from '../hooks/use-tool-timeline';
import { cx } from './cx';

/**
 * Props of {@link ToolTimeline}: the hook's options and the figure's own attributes.
 *
 * @example
 * <ToolTimeline now={endOfReplay} aria-label="This turn's calls" />
 */
export interface ToolTimelineProps extends UseToolTimelineOptions, Omit<ComponentPropsWithoutRef<'figure'>, 'children'> {}

const pct = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;

/**
 * The session's calls as bars on one time axis: a hatched part while the model wrote the
 * arguments (what waited), then a solid part while the call ran, coloured by how it ended.
 * Each bar has a text equivalent (name, status, start, how long each part took).
 *
 * @example
 * <ToolTimeline />
 */
export const ToolTimeline = forwardRef<HTMLElement, ToolTimelineProps>(function ToolTimeline({ store, now, clock, className, ...rest }, ref) {
  const labels = useLabels();
  const { rows, from, to } = useToolTimeline({ store, now, clock });
  const { locale } = labels;
  const captionId = useId();
  const legend: [string, string][] = [
    ['writing', labels.phaseWriting],
    ['open', labels.phaseRunning],
    ['awaiting', labels.awaitingApproval],
    ['ok', labels.status.settled],
    ['error', labels.codes.FAILED],
    ['cancelled', labels.status.cancelled],
    ['failed', labels.status.failed],
  ];
  return (
    <figure aria-labelledby={captionId} {...rest} ref={ref} className={cx('toolgate-timeline', className)}>
      <figcaption id={captionId} className="toolgate-timeline-caption">
        {labels.timeline}{' '}
        {rows.length > 0 && (
          <span className="toolgate-timeline-axis">
            {formatTime(from, locale)} + {formatDuration(to - from, locale)}
          </span>
        )}
      </figcaption>
      <TimelineRows rows={rows} from={0} to={rows.length} depth={0} />
      <ul className="toolgate-timeline-legend">
        {legend.map(([key, text]) => (
          <li key={key} data-outcome={key}>
            {text}
          </li>
        ))}
      </ul>
    </figure>
  );
});

/** Nested lists stop at this depth: deeper calls are listed (and indented) at this level. */
const MAX_NESTING = 12;

/**
 * The rows `from`..`to` (tree order) at `depth`, each with a nested list of the calls made inside
 * it, so a screen reader says how deep each call is. Bars keep one time axis at every depth:
 * only the name is indented.
 */
function TimelineRows({ rows, from, to, depth }: { rows: readonly ToolTimelineRow[]; from: number; to: number; depth: number }) {
  const labels = useLabels();
  const { locale } = labels;
  const items: ReactNode[] = [];
  for (let i = from; i < to; ) {
    const row = rows[i] as ToolTimelineRow;
    // The calls inside this one: the rows after it that are deeper (flat past the deepest list).
    let end = i + 1;
    if (depth < MAX_NESTING) while (end < to && (rows[end] as ToolTimelineRow).depth > depth) end++;
    const { call, outcome, start, issued, end: ended, offset, writing, running, approval } = row;
    // A call that waits for a person is not running: its bar and its words say so.
    const awaiting = approval === 'awaiting' && outcome === 'open';
    items.push(
      <li key={call.callId} data-status={call.status} data-outcome={outcome} data-approval={approval} style={row.depth ? { ['--toolgate-depth' as string]: row.depth } : undefined}>
        <span className="toolgate-timeline-name" aria-hidden="true">
          {call.name}
        </span>
        <span className="toolgate-timeline-track" aria-hidden="true">
          {(writing > 0 || running === 0) && <span data-phase="writing" style={{ insetInlineStart: pct(offset), width: pct(writing) }} />}
          {running > 0 && <span data-phase={awaiting ? 'awaiting' : 'running'} style={{ insetInlineStart: pct(offset + writing), width: pct(running) }} />}
        </span>
        <span className="toolgate-timeline-time" aria-hidden="true">
          {formatDuration(ended - start, locale)}
        </span>
        <span className="toolgate-sr-only">
          {labels.timelineRow({
            name: call.name,
            status: statusText(labels, { status: call.status, ok: call.ok, code: call.code, approval }),
            start: formatTime(start, locale),
            writing: formatDuration((issued ?? ended) - start, locale),
            running: issued === undefined || awaiting ? undefined : formatDuration(ended - issued, locale),
          })}
        </span>
        {end > i + 1 && <TimelineRows rows={rows} from={i + 1} to={end} depth={depth + 1} />}
      </li>,
    );
    i = end;
  }
  return <ol className="toolgate-timeline-rows">{items}</ol>;
}
