/**
 * The time a request has left before it expires: shown to the second, said to screen readers only
 * at a few moments (a minute, 30 s, 10 s left, and when it expired), never every second. What is
 * said stays in the live region only during the second it was said, so the region never holds a
 * time the screen no longer shows. The wire has no way to extend a deadline (docs/protocol.md,
 * `expiresAt`), so the dialog says that it is fixed.
 */
import { forwardRef, useState, type ComponentPropsWithoutRef } from 'react';
import { confirmationStatusSets } from '../core/approval/confirmation-machine';
import type { ConfirmToolLabels } from '../wording/confirm-labels';
import { useNow, type ToolgateClock } from '../hooks/use-now';
import { useConfirmToolDialog } from './confirm-dialog-context';
import { cx } from './cx';

/** Seconds left at which the time is said aloud, largest first. */
const THRESHOLDS = [60, 30, 10] as const;

/** `1:05`, `0:09`, `1:02:03`. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** Which of the moments to say aloud has passed: 0 before a minute is left, then one more per threshold, and one past the last when expired. */
function bucketOf(seconds: number): number {
  if (seconds <= 0) return THRESHOLDS.length + 1;
  let bucket = 0;
  for (const threshold of THRESHOLDS) if (seconds <= threshold) bucket += 1;
  return bucket;
}

interface TimeLeft {
  /** Whole seconds left (rounded up), or `null` before the clock was read (server render). */
  readonly seconds: number | null;
  readonly expired: boolean;
  /**
   * What the polite live region says: set only when a threshold passes (never at first render),
   * and emptied the next second, so it never says a time the screen no longer shows.
   */
  readonly announcement: string;
}

/**
 * The time left until `expiresAt` by `clock`, re-read every second while it runs, and what to say
 * aloud. `ended`: the request has its outcome (or expired): the clock stops. `sayExpired: false`
 * leaves the expiry unsaid here, where another region (the dialog's alert) says it: once, not twice.
 */
export function useTimeLeft(
  expiresAt: number | null,
  ended: boolean,
  expired: boolean,
  clock: ToolgateClock,
  labels: ConfirmToolLabels,
  { sayExpired = true }: { sayExpired?: boolean } = {},
): TimeLeft {
  const now = useNow(expiresAt !== null && !ended, 1000, clock);
  const seconds = expiresAt === null || now === undefined ? null : Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const over = expired || seconds === 0;
  const bucket = over ? THRESHOLDS.length + 1 : seconds === null ? -1 : bucketOf(seconds);
  // Derived state: the announcement changes when the bucket does (not on the first reading).
  const [said, setSaid] = useState<{ bucket: number; seconds: number | null; text: string }>({ bucket: -1, seconds: null, text: '' });
  if (bucket !== said.bucket) {
    const first = said.bucket === -1 && !over;
    const text = first ? '' : over ? (sayExpired ? labels.status.expired : '') : bucket === 0 ? '' : labels.expiresSoon(formatTimeLeft(seconds ?? 0));
    setSaid({ bucket, seconds, text });
    return { seconds, expired: over, announcement: text };
  }
  // The time said is the time shown only during its own second: after it, the region is emptied.
  return { seconds, expired: over, announcement: over || seconds === said.seconds ? said.text : '' };
}

/** The visible time left and the polite region that says it at the thresholds; with `fixed`, that the deadline cannot be extended. */
export function TimeLeftText({ left, labels, className, fixed = false }: { left: TimeLeft; labels: ConfirmToolLabels; className?: string; fixed?: boolean }) {
  return (
    <p className={cx('toolgate-confirm-expiry', className)} data-expired={left.expired ? '' : undefined} data-soon={!left.expired && left.seconds !== null && left.seconds <= THRESHOLDS[1] ? '' : undefined}>
      <span>{left.expired ? labels.status.expired : left.seconds === null ? '' : labels.expiresIn(formatTimeLeft(left.seconds))}</span>
      {fixed && !left.expired && <span className="toolgate-confirm-expiry-fixed"> {labels.expiryFixed}</span>}
      <span className="toolgate-sr-only" aria-live="polite" aria-atomic="true">
        {left.announcement}
      </span>
    </p>
  );
}

/**
 * Props of {@link ConfirmToolDialogExpiry}.
 *
 * @example
 * const props: ConfirmToolDialogExpiryProps = { className: 'my-countdown' };
 */
export type ConfirmToolDialogExpiryProps = { className?: string };

/**
 * The time the shown request has left before it expires ("Expires in 0:42", updated each
 * second), and that the deadline is fixed (the wire offers no extension). Screen readers hear it
 * politely only when a minute, 30 seconds and 10 seconds are left, and only during that second.
 * Once the request expired it shows nothing: the dialog's alert says so, once (a dialog composed
 * of parts says it from `useConfirmToolDialog().status`). Time is read from the root's `clock`. Nothing for a request without `expiresAt`.
 *
 * @example
 * <ConfirmToolDialogContent>
 *   <ConfirmToolDialogTitle />
 *   <ConfirmToolDialogExpiry />
 * </ConfirmToolDialogContent>
 */
export const ConfirmToolDialogExpiry = forwardRef<HTMLDivElement, ConfirmToolDialogExpiryProps>(function ConfirmToolDialogExpiry({ className }, ref) {
  const { view, status, clock, labels } = useConfirmToolDialog();
  const expiresAt = view?.expiresAt ?? null;
  // Decided, or ended: the time no longer matters (a done request does not "expire").
  const ended = status !== 'expired' && view !== null && !confirmationStatusSets().awaitingDecision.has(status);
  const left = useTimeLeft(expiresAt, ended || status === 'expired', status === 'expired', clock, labels.confirm, { sayExpired: false });
  if (expiresAt === null || ended || left.expired) return null;
  return (
    <div ref={ref} className={cx('toolgate-confirm-expiry-box', className)}>
      <TimeLeftText left={left} labels={labels.confirm} fixed />
    </div>
  );
});
