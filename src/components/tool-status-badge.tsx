import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import type { ToolCallStatus } from '../core/stream/call-lifecycle';
import type { AppCallStatus } from '../core/app-tools/types';
import type { ToolApproval } from '../core/stream/local-events';
import { callOutcome, statusText, useLabels } from '../wording/labels';
import { cx } from './cx';

/**
 * Props of {@link ToolStatusBadge}.
 *
 * @example
 * <ToolStatusBadge status={call.status} ok={call.ok} code={call.code} approval={call.approval} />
 */
export interface ToolStatusBadgeProps extends Omit<ComponentPropsWithoutRef<'span'>, 'children'> {
  status: ToolCallStatus;
  /** For a settled call: whether it succeeded (a failure shows its code). */
  ok?: boolean | undefined;
  /** For a settled failure: the result code (`TIMEOUT`, …). */
  code?: string | undefined;
  /** Where the call stands with a person's approval: `awaiting` reads "Awaiting approval", never "Running". */
  approval?: ToolApproval | undefined;
  /** For an app tool this page runs, its call's status in the page: `queued` and `validating` read "Waiting its turn" and "Checking arguments", never "Running". */
  appStatus?: AppCallStatus | undefined;
}

/**
 * A call's status in words, with `data-status` (the lifecycle status) and `data-outcome`
 * (`open | ok | error | cancelled | failed`) for styling.
 *
 * @example
 * <ToolStatusBadge status={call.status} ok={call.ok} code={call.code} />
 */
export const ToolStatusBadge = forwardRef<HTMLSpanElement, ToolStatusBadgeProps>(function ToolStatusBadge(
  { status, ok, code, approval, appStatus, className, ...rest },
  ref,
) {
  const labels = useLabels();
  return (
    <span
      {...rest}
      ref={ref}
      className={cx('toolgate-badge', className)}
      data-status={status}
      data-outcome={callOutcome({ status, ok })}
      data-code={status === 'settled' && ok === false ? (code ?? 'FAILED') : undefined}
      data-approval={approval}
      data-app-status={appStatus}
    >
      {statusText(labels, { status, ok, code, approval, appStatus })}
    </span>
  );
});
