/**
 * The one button that decides a request, for the dialog, its parts and the cards. What it may do
 * comes from the confirmation table (`view.can.*`, docs/architecture.md, "From the dialog to a
 * run"); it only keeps to it the same way everywhere.
 */
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { composeHandlers, ignoreRepeat } from './confirm-dialog-context';
import { cx } from './cx';

/** Props of {@link ActionButton}: a button's own, less its type. */
export interface ActionButtonProps extends Omit<ComponentPropsWithoutRef<'button'>, 'type'> {
  /** Whether it may act now: the request's `can.*`. */
  enabled: boolean;
  /** What it does when it may. */
  onAct: () => void;
  /** Marked `data-danger` (a high-risk tool's approval). */
  danger?: boolean | undefined;
}

/**
 * A button that stays focusable while it cannot act (`aria-disabled`, so focus is not lost when a
 * request moves on), acts only while `enabled`, and ignores held-down keys: a key repeat never acts
 * twice, nor on the next request. The consumer's handlers run first and may prevent its own.
 *
 * @example
 * <ActionButton className="toolgate-card-deny" enabled={request.can.deny} onAct={() => approval.deny()}>Deny</ActionButton>
 */
export const ActionButton = forwardRef<HTMLButtonElement, ActionButtonProps>(function ActionButton(
  { enabled, onAct, danger, className, onClick, onKeyDown, ...rest },
  ref,
) {
  return (
    <button
      {...rest}
      ref={ref}
      type="button"
      className={cx('toolgate-button', className)}
      aria-disabled={enabled ? undefined : true}
      data-danger={danger ? '' : undefined}
      onKeyDown={composeHandlers(onKeyDown, ignoreRepeat)}
      onClick={composeHandlers(onClick, () => {
        if (enabled) onAct();
      })}
    />
  );
});
