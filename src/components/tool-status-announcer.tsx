import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { useStatusAnnouncer, type UseStatusAnnouncerOptions } from '../hooks/use-status-announcer';
import { cx } from './cx';

/**
 * Props of {@link ToolStatusAnnouncer}: the hook's options and the region's own attributes.
 *
 * @example
 * <ToolStatusAnnouncer throttleMs={2000} />
 */
export interface ToolStatusAnnouncerProps extends UseStatusAnnouncerOptions, Omit<ComponentPropsWithoutRef<'div'>, 'children'> {}

/**
 * A polite, throttled live region that reads out status changes (`search: Running`). Visually
 * hidden (`toolgate-sr-only`); render one per session. `<ToolCallList>` includes one.
 *
 * @example
 * <ToolStatusAnnouncer throttleMs={2000} />
 */
export const ToolStatusAnnouncer = forwardRef<HTMLDivElement, ToolStatusAnnouncerProps>(function ToolStatusAnnouncer(
  { store, throttleMs, clock, className, ...rest },
  ref,
) {
  const message = useStatusAnnouncer({ store, throttleMs, clock });
  return (
    <div role="status" aria-live="polite" aria-atomic="true" {...rest} ref={ref} className={cx('toolgate-sr-only', className)}>
      {message}
    </div>
  );
});
