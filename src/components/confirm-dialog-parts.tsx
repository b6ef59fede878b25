/**
 * The parts of the confirmation dialog, in Radix's manner: each renders one element (or, like
 * `Portal`, none of its own), takes the element's props and a ref, runs the consumer's event
 * handlers first (ours only when they did not `preventDefault()`), and reads the request from
 * `ConfirmToolDialogRoot`. `<ConfirmToolDialog />` is these parts, composed.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { forwardRef, useEffect, useRef, type ComponentPropsWithoutRef, type ElementRef, type MouseEvent } from 'react';
import { formatNumber } from '../wording/labels';
import { ArgumentsPreview, type ArgumentsPreviewProps } from './arguments-preview';
import { composeHandlers, ignoreRepeat, useConfirmToolDialog, useFocusTarget } from './confirm-dialog-context';
import { ActionButton } from './action-button';
import { HoldButton } from './confirm-step';
import { cx } from './cx';

export { useConfirmToolDialog, type ConfirmToolDialogContextValue } from './confirm-dialog-context';

/**
 * Props of {@link ConfirmToolDialogPortal}: Radix's `Dialog.Portal` props.
 *
 * @example
 * const props: ConfirmToolDialogPortalProps = { container: document.getElementById('dialogs') };
 */
export type ConfirmToolDialogPortalProps = ComponentPropsWithoutRef<typeof Dialog.Portal>;

/**
 * Where the dialog is rendered: `document.body` by default, or `container`. No element of its own.
 *
 * @example
 * <ConfirmToolDialogPortal container={panel}><ConfirmToolDialogContent>…</ConfirmToolDialogContent></ConfirmToolDialogPortal>
 */
export function ConfirmToolDialogPortal(props: ConfirmToolDialogPortalProps) {
  return <Dialog.Portal {...props} />;
}

/**
 * Props of {@link ConfirmToolDialogOverlay}.
 *
 * @example
 * const props: ConfirmToolDialogOverlayProps = { className: 'my-backdrop' };
 */
export type ConfirmToolDialogOverlayProps = ComponentPropsWithoutRef<typeof Dialog.Overlay>;

/**
 * The layer over the page behind a modal dialog (`data-state` open or closed). A click on it does
 * nothing. Rendered only when the root is modal.
 *
 * @example
 * <ConfirmToolDialogOverlay className="my-backdrop" />
 */
export const ConfirmToolDialogOverlay = forwardRef<ElementRef<typeof Dialog.Overlay>, ConfirmToolDialogOverlayProps>(function ConfirmToolDialogOverlay(
  { className, ...rest },
  ref,
) {
  return <Dialog.Overlay {...rest} ref={ref} className={cx('toolgate-confirm-overlay', className)} />;
});

/**
 * Props of {@link ConfirmToolDialogContent}: Radix's `Dialog.Content` props.
 *
 * @example
 * const props: ConfirmToolDialogContentProps = { className: 'my-dialog', onEscapeKeyDown: (event) => log(event) };
 */
export type ConfirmToolDialogContentProps = ComponentPropsWithoutRef<typeof Dialog.Content>;

/**
 * The dialog itself (`role="dialog"`, labelled by the title, described by the description), with
 * `data-state` (`open`/`closed`), `data-status` (the request's status), `data-risk` and
 * `data-effect`. Its rules: Escape denies while a person may still say no, closes a shown outcome
 * and does nothing while a call runs; a click outside does nothing; focus is trapped, starts on
 * the confirm step's field or Deny, moves to Check or Close after an outcome, and returns to where
 * it was when the dialog closes.
 *
 * @example
 * <ConfirmToolDialogContent className="my-dialog">
 *   <ConfirmToolDialogTitle />
 *   <ConfirmToolDialogDeny />
 *   <ConfirmToolDialogApprove />
 * </ConfirmToolDialogContent>
 */
export const ConfirmToolDialogContent = forwardRef<ElementRef<typeof Dialog.Content>, ConfirmToolDialogContentProps>(function ConfirmToolDialogContent(
  { className, onEscapeKeyDown, onPointerDownOutside, onInteractOutside, onOpenAutoFocus, onCloseAutoFocus, ...rest },
  ref,
) {
  const dialog = useConfirmToolDialog();
  useFocusRules();
  return (
    <Dialog.Content
      {...rest}
      ref={ref}
      className={cx('toolgate-confirm', className)}
      data-status={dialog.status}
      data-risk={dialog.descriptor.risk}
      data-effect={dialog.descriptor.effect}
      // A click outside does nothing (docs/protocol.md, "Confirmation").
      onPointerDownOutside={composeHandlers(onPointerDownOutside, (event) => event.preventDefault())}
      onInteractOutside={composeHandlers(onInteractOutside, (event) => event.preventDefault())}
      onEscapeKeyDown={composeHandlers(onEscapeKeyDown, (event) => {
        // The dialog never closes by itself: Escape denies while reviewing, closes a shown
        // outcome, and does nothing while a call is in flight. A held-down Escape acts once.
        event.preventDefault();
        if (!event.repeat) dialog.escape();
      })}
      // The dialog focuses its own first control (Deny, or the confirm step's field).
      onOpenAutoFocus={composeHandlers(onOpenAutoFocus, (event) => event.preventDefault())}
      onCloseAutoFocus={composeHandlers(onCloseAutoFocus, (event) => {
        event.preventDefault();
        dialog.returnFocus();
      })}
    />
  );
});

/**
 * First focus on a new request: the confirm step's field, or Deny (the safe choice, never an
 * Approve a repeated key could hit); after an outcome, its safe action (Check, else Close).
 */
function useFocusRules(): void {
  const { open, reviewing, status, view, closable, focusFirst } = useConfirmToolDialog();
  const id = view?.id;
  const reviewNow = useRef({ reviewing, focusFirst });
  reviewNow.current = { reviewing, focusFirst };
  useEffect(() => {
    if (open && reviewNow.current.reviewing) reviewNow.current.focusFirst('step', 'deny');
    // Only when a request is first shown, not on each change of it.
  }, [open, id]);
  useEffect(() => {
    if (open && closable) reviewNow.current.focusFirst('check', 'close');
  }, [open, closable, status]);
}

/**
 * Props of {@link ConfirmToolDialogTitle}.
 *
 * @example
 * const props: ConfirmToolDialogTitleProps = { className: 'my-title' };
 */
export type ConfirmToolDialogTitleProps = ComponentPropsWithoutRef<typeof Dialog.Title>;

/**
 * The proposed action (the descriptor's title, or the tool's name), which names the dialog.
 * Children replace the text.
 *
 * @example
 * <ConfirmToolDialogTitle className="my-title" />
 */
export const ConfirmToolDialogTitle = forwardRef<ElementRef<typeof Dialog.Title>, ConfirmToolDialogTitleProps>(function ConfirmToolDialogTitle(
  { className, children, ...rest },
  ref,
) {
  const { view, fallbackTitle, labels } = useConfirmToolDialog();
  return (
    <Dialog.Title {...rest} ref={ref} className={cx('toolgate-confirm-title', className)}>
      {children ?? (view ? labels.confirm.title(view.title, view.toolName) : fallbackTitle)}
    </Dialog.Title>
  );
});

/**
 * Props of {@link ConfirmToolDialogDescription}.
 *
 * @example
 * const props: ConfirmToolDialogDescriptionProps = { children: 'Check the recipient.' };
 */
export type ConfirmToolDialogDescriptionProps = ComponentPropsWithoutRef<typeof Dialog.Description>;

/**
 * What a person is asked to do ("Check the exact arguments before you approve…", shorter for a
 * read), or, when the request ended before it could be shown, its status. Describes the dialog.
 * Hidden once the request expired: there is nothing left to review.
 *
 * @example
 * <ConfirmToolDialogDescription />
 */
export const ConfirmToolDialogDescription = forwardRef<ElementRef<typeof Dialog.Description>, ConfirmToolDialogDescriptionProps>(
  function ConfirmToolDialogDescription({ className, children, ...rest }, ref) {
    const { view, status, descriptor, labels } = useConfirmToolDialog();
    // Expired: there is nothing left to review, so the instructions go (the alert says what happened).
    const gone = view !== null && status === 'expired' && children === undefined;
    const text = view === null ? labels.confirm.status[status] : descriptor.effect === 'read' ? labels.confirm.descriptionRead : labels.confirm.description;
    return (
      <Dialog.Description {...rest} ref={ref} className={cx('toolgate-confirm-description', className)} hidden={gone || rest.hidden}>
        {gone ? null : (children ?? text)}
      </Dialog.Description>
    );
  },
);

/**
 * Props of {@link ConfirmToolDialogArguments}: those of `ArgumentsPreview`, but its value.
 *
 * @example
 * const props: ConfirmToolDialogArgumentsProps = { schema: transferSchema, collapseAfter: 20 };
 */
export type ConfirmToolDialogArgumentsProps = Omit<ArgumentsPreviewProps, 'value' | 'complete'>;

/**
 * The exact arguments a person approves, as a readable tree (the deep-frozen snapshot that is
 * fingerprinted and run; long strings and large arrays start collapsed, never cut). Scrollable
 * and reachable by keyboard. Nothing when the arguments were refused.
 *
 * @example
 * <ConfirmToolDialogArguments schema={{ properties: { to: { title: 'Recipient' } } }} />
 */
export const ConfirmToolDialogArguments = forwardRef<HTMLDivElement, ConfirmToolDialogArgumentsProps>(function ConfirmToolDialogArguments(
  { className, tabIndex = 0, ...rest },
  ref,
) {
  const { view } = useConfirmToolDialog();
  if (view === null || (view.fingerprint === null && view.arguments === null)) return null;
  return <ArgumentsPreview {...rest} ref={ref} tabIndex={tabIndex} className={cx('toolgate-confirm-args', className)} value={view.arguments} complete />;
});

/**
 * Props of {@link ConfirmToolDialogFingerprint}.
 *
 * @example
 * const props: ConfirmToolDialogFingerprintProps = { title: 'SHA-256 of the canonical arguments' };
 */
export type ConfirmToolDialogFingerprintProps = ComponentPropsWithoutRef<'code'>;

/**
 * The short fingerprint of the arguments shown (`data-fingerprint` holds the full SHA-256 hex),
 * so a person can compare it with what ran; `…` while it is computed. Children replace the text.
 *
 * @example
 * <dl><dt>Fingerprint</dt><dd><ConfirmToolDialogFingerprint /></dd></dl>
 */
export const ConfirmToolDialogFingerprint = forwardRef<HTMLElement, ConfirmToolDialogFingerprintProps>(function ConfirmToolDialogFingerprint(
  { className, children, ...rest },
  ref,
) {
  const { view } = useConfirmToolDialog();
  const fingerprint = view?.fingerprint ?? null;
  return (
    <code {...rest} ref={ref} className={cx('toolgate-confirm-fingerprint', className)} data-fingerprint={fingerprint?.hex}>
      {children ?? fingerprint?.short ?? '…'}
    </code>
  );
});

/**
 * Props of {@link ConfirmToolDialogQueueCount}.
 *
 * @example
 * const props: ConfirmToolDialogQueueCountProps = { className: 'my-count' };
 */
export type ConfirmToolDialogQueueCountProps = ComponentPropsWithoutRef<'p'>;

/**
 * How many requests wait behind the one shown ("2 more waiting"), or, for a dialog's own request
 * in a shared queue, how many come first. Nothing when none do.
 *
 * @example
 * <ConfirmToolDialogQueueCount />
 */
export const ConfirmToolDialogQueueCount = forwardRef<HTMLParagraphElement, ConfirmToolDialogQueueCountProps>(function ConfirmToolDialogQueueCount(
  { className, children, ...rest },
  ref,
) {
  const { waiting, ahead, labels } = useConfirmToolDialog();
  const count = (n: number) => formatNumber(n, labels.all.locale);
  const text = waiting > 0 ? labels.confirm.waiting(waiting, count(waiting)) : ahead > 0 ? labels.confirm.queued(ahead, count(ahead)) : null;
  if (text === null) return null;
  return (
    <p {...rest} ref={ref} className={cx('toolgate-confirm-waiting', className)}>
      {children ?? text}
    </p>
  );
});

/**
 * Props of {@link ConfirmToolDialogApprove}.
 *
 * @example
 * const props: ConfirmToolDialogApproveProps = { children: 'Send the money' };
 */
export type ConfirmToolDialogApproveProps = Omit<ComponentPropsWithoutRef<'button'>, 'type'>;

/**
 * Approve ("Approve" by default). It stays focusable while it cannot act (`aria-disabled`), acts
 * once however often it is clicked or its key repeats, and, with the root's
 * `confirmStep="hold"` on a high-risk request, acts only when pressed and held. One approval
 * gives at most one run.
 *
 * @example
 * <ConfirmToolDialogApprove className="my-approve">Send it</ConfirmToolDialogApprove>
 */
export const ConfirmToolDialogApprove = forwardRef<HTMLButtonElement, ConfirmToolDialogApproveProps>(function ConfirmToolDialogApprove(
  { className, children, onClick, onKeyDown, ...rest },
  ref,
) {
  const dialog = useConfirmToolDialog();
  const label = children ?? dialog.labels.confirm.approve;
  const classes = cx('toolgate-button', 'toolgate-confirm-approve', className);
  if (dialog.step === 'hold') {
    return (
      <HoldButton {...rest} ref={ref} className={classes} data-danger={dialog.descriptor.risk === 'high' ? '' : undefined} holdMs={dialog.holdMs} enabled={dialog.canApprove} onComplete={dialog.approve} onHoldingChange={dialog.setHolding} onKeyDown={onKeyDown}>
        {label}
      </HoldButton>
    );
  }
  return (
    <button
      {...rest}
      ref={ref}
      type="button"
      className={classes}
      aria-disabled={dialog.canApprove ? undefined : true}
      data-danger={dialog.descriptor.risk === 'high' ? '' : undefined}
      onKeyDown={composeHandlers(onKeyDown, ignoreRepeat)}
      onClick={composeHandlers(onClick, (_event: MouseEvent<HTMLButtonElement>) => dialog.approve())}
    >
      {label}
    </button>
  );
});

/**
 * Props of {@link ConfirmToolDialogDeny}.
 *
 * @example
 * const props: ConfirmToolDialogDenyProps = { children: 'Not now' };
 */
export type ConfirmToolDialogDenyProps = Omit<ComponentPropsWithoutRef<'button'>, 'type'>;

/**
 * Deny ("Deny" by default), with the reason typed in the deny-reason field when the root asks for
 * one. It calls nothing in the room, acts only while a person may still say no (after approval
 * nothing cancels the call), and takes first focus on a new request: the safe choice.
 *
 * @example
 * <ConfirmToolDialogDeny>Not now</ConfirmToolDialogDeny>
 */
export const ConfirmToolDialogDeny = forwardRef<HTMLButtonElement, ConfirmToolDialogDenyProps>(function ConfirmToolDialogDeny(
  { className, children, onClick, onKeyDown, ...rest },
  ref,
) {
  const dialog = useConfirmToolDialog();
  const enabled = dialog.view?.can.deny === true;
  const refs = useFocusTarget('deny', ref);
  return (
    <ActionButton {...rest} ref={refs} className={cx('toolgate-confirm-deny', className)} enabled={enabled} onAct={() => dialog.deny()} onClick={onClick} onKeyDown={onKeyDown}>
      {children ?? dialog.labels.confirm.deny}
    </ActionButton>
  );
});
