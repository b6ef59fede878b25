import { forwardRef, useId, type ComponentPropsWithoutRef } from 'react';
import { formatDuration, formatTime, statusText, useLabels } from '../hooks/labels';
import { useToolTimeline, type UseToolTimelineOptions } from '../hooks/use-tool-timeline';
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
      <ol className="toolgate-timeline-rows">
        {rows.map(({ call, outcome, start, issued, end, offset, writing, running }) => {
          // A call that waits for a person is not running: its bar and its words say so.
          const awaiting = call.approval === 'awaiting' && outcome === 'open';
          return (
            <li key={call.callId} data-status={call.status} data-outcome={outcome} data-approval={call.approval}>
              <span className="toolgate-timeline-name" aria-hidden="true">
                {call.name}
              </span>
              <span className="toolgate-timeline-track" aria-hidden="true">
                {(writing > 0 || running === 0) && <span data-phase="writing" style={{ insetInlineStart: pct(offset), width: pct(writing) }} />}
                {running > 0 && <span data-phase={awaiting ? 'awaiting' : 'running'} style={{ insetInlineStart: pct(offset + writing), width: pct(running) }} />}
              </span>
              <span className="toolgate-timeline-time" aria-hidden="true">
                {formatDuration(end - start, locale)}
              </span>
              <span className="toolgate-sr-only">
                {labels.timelineRow({
                  name: call.name,
                  status: statusText(labels, call),
                  start: formatTime(start, locale),
                  writing: formatDuration((issued ?? end) - start, locale),
                  running: issued === undefined || awaiting ? undefined : formatDuration(end - issued, locale),
                })}
              </span>
            </li>
          );
        })}
      </ol>
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
