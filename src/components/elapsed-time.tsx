import { useEffect, useRef, type MutableRefObject } from 'react';
import { formatDuration, type ToolgateLabels } from '../wording/labels';
import { onTick } from './shared-ticker';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';
import type { ToolgateClock } from '../hooks/use-now';

/**
 * An open call's running time ("3 s so far"), written into its element by one shared timer per
 * clock instead of a render of the card each second (see docs/architecture.md, "What loads when"). Each
 * render writes the time read now, and so does `refresh` (which the card calls after each of its
 * renders, without rendering this), so a change of the call between ticks shows the time of that
 * change. Empty on the server: the time there would not match the browser's.
 */
export function ElapsedTime({
  startedAt,
  clock,
  labels,
  refresh,
}: {
  startedAt: number;
  clock: ToolgateClock;
  labels: ToolgateLabels;
  refresh?: MutableRefObject<(() => void) | undefined>;
}) {
  const ref = useRef<HTMLSpanElement>(null);
  const write = useRef(() => {});
  write.current = () => {
    const element = ref.current;
    if (element === null) return;
    const text = labels.elapsed(formatDuration(Math.max(0, clock.now() - startedAt), labels.locale));
    if (element.textContent !== text) element.textContent = text;
  };
  // After every render, before paint.
  useIsomorphicLayoutEffect(() => write.current());
  useIsomorphicLayoutEffect(() => {
    if (refresh === undefined) return undefined;
    refresh.current = () => write.current();
    return () => {
      refresh.current = undefined;
    };
  }, [refresh]);
  useEffect(() => onTick(clock, 1000, () => write.current()), [clock]);
  return <span ref={ref} className="toolgate-card-time" />;
}
