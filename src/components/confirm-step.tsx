import { forwardRef, useEffect, useRef, useState, type ComponentPropsWithoutRef, type CSSProperties, type KeyboardEvent } from 'react';
import { cx } from './cx';

/**
 * The deliberate second step `ConfirmToolDialog` can ask for before a high-risk approval:
 * - `type-name`: type the tool's name to enable Approve;
 * - `hold`: press and hold Approve (pointer, or Enter / Space held down) for `holdMs`.
 *
 * @example
 * <ConfirmToolDialog confirmStep="type-name" />
 */
export type ConfirmStep = 'type-name' | 'hold';

const isActivationKey = (key: string): boolean => key === 'Enter' || key === ' ';

/**
 * Props of {@link HoldButton}.
 *
 * @example
 * const props: HoldButtonProps = { holdMs: 1500, enabled: view.can.approve, onComplete: approve };
 */
export interface HoldButtonProps extends Omit<ComponentPropsWithoutRef<'button'>, 'onClick' | 'type'> {
  /** How long the press must last, in ms. */
  holdMs: number;
  /** Whether holding can complete now (otherwise the button is `aria-disabled`). */
  enabled: boolean;
  /** Called once when a hold lasts `holdMs`. */
  onComplete: () => void;
  /** Told when a hold starts (`true`) and ends, completed or not (`false`). */
  onHoldingChange?: (holding: boolean) => void;
}

/**
 * A button that acts only when pressed and held: by pointer, or by holding Enter or Space (the
 * keyboard equivalent). A click, a tap or a key press shorter than `holdMs` does nothing;
 * releasing, leaving the button or losing focus cancels. Exposes `data-holding` while held and
 * `--toolgate-hold-ms` for a fill animation.
 *
 * @example
 * <HoldButton holdMs={1500} enabled onComplete={approve}>Approve</HoldButton>
 */
export const HoldButton = forwardRef<HTMLButtonElement, HoldButtonProps>(function HoldButton(
  { holdMs, enabled, onComplete, onHoldingChange, className, style, onPointerDown, onPointerUp, onPointerLeave, onPointerCancel, onKeyDown, onKeyUp, onBlur, ...rest },
  ref,
) {
  const [holding, setHolding] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ onComplete, onHoldingChange });
  latest.current = { onComplete, onHoldingChange };

  const stop = (): void => {
    if (timer.current === undefined) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    setHolding(false);
    latest.current.onHoldingChange?.(false);
  };
  const start = (): void => {
    if (!enabled || timer.current !== undefined) return;
    setHolding(true);
    latest.current.onHoldingChange?.(true);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setHolding(false);
      latest.current.onHoldingChange?.(false);
      latest.current.onComplete();
    }, holdMs);
  };
  // A hold in progress must not complete after the button is gone.
  useEffect(
    () => () => {
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = undefined;
    },
    [],
  );

  return (
    <button
      {...rest}
      ref={ref}
      type="button"
      className={cx('toolgate-hold', className)}
      aria-disabled={enabled ? undefined : true}
      data-holding={holding ? '' : undefined}
      style={{ ...style, '--toolgate-hold-ms': `${holdMs}ms` } as CSSProperties}
      onPointerDown={(event) => {
        onPointerDown?.(event);
        if (!event.defaultPrevented && event.button === 0) start();
      }}
      onPointerUp={(event) => {
        onPointerUp?.(event);
        stop();
      }}
      onPointerLeave={(event) => {
        onPointerLeave?.(event);
        stop();
      }}
      onPointerCancel={(event) => {
        onPointerCancel?.(event);
        stop();
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        onKeyDown?.(event);
        if (event.defaultPrevented || !isActivationKey(event.key)) return;
        // No click from the key: only the hold counts. Repeats of a held key keep holding.
        event.preventDefault();
        if (!event.repeat) start();
      }}
      onKeyUp={(event) => {
        onKeyUp?.(event);
        if (isActivationKey(event.key)) {
          event.preventDefault();
          stop();
        }
      }}
      onBlur={(event) => {
        onBlur?.(event);
        stop();
      }}
      // A click alone (mouse, tap, assistive technology) is not a hold.
      onClick={(event) => event.preventDefault()}
    />
  );
});
