/**
 * What the parts of the confirmation dialog share: the request shown, its actions, the dialog's
 * strings and the little state of one review (the typed name, the deny reason, a hold in
 * progress), given by `ConfirmToolDialogRoot` and read through {@link useConfirmToolDialog}.
 */
import { createContext, useCallback, useContext, type ForwardedRef, type KeyboardEvent, type SyntheticEvent } from 'react';
import type { ConfirmationOutcome, ConfirmationView } from '../core/approval/confirmation-types';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import type { ConfirmationStatus } from '../core/approval/confirmation-machine';
import type { ToolDescriptor } from '../core/approval/tool-descriptor';
import type { ConfirmToolLabels } from '../wording/confirm-labels';
import type { ToolgateLabels } from '../wording/labels';
import type { ToolgateClock } from '../hooks/use-now';
import type { ToolConfirmationActions } from '../hooks/use-tool-confirmation';
import type { ConfirmStep } from './confirm-step';

/** Where the dialog moves focus: the confirm step's field or Deny on a new request, Check or Close after an outcome, Edit when the editor closes. */
export type FocusTarget = 'step' | 'deny' | 'check' | 'close' | 'edit';

/**
 * What every part of the confirmation dialog reads: the request shown and its state, the
 * actions bound to it, the strings, and the review's own state.
 *
 * @example
 * function Risk() {
 *   const { descriptor, labels } = useConfirmToolDialog();
 *   return <span>{labels.all.risk[descriptor.risk]}</span>;
 * }
 */
export interface ConfirmToolDialogContextValue {
  /** Whether the dialog is shown. */
  readonly open: boolean;
  /** The request shown; `null` when it ended before it could be shown (no room, say): then `outcome` says why. */
  readonly view: ConfirmationView | null;
  readonly status: ConfirmationStatus;
  readonly outcome: ConfirmationOutcome | null;
  /** Its descriptor (the one given, resolved, until the request exists). */
  readonly descriptor: Readonly<ToolDescriptor>;
  /** The title when there is no request to name (it ended before review). */
  readonly fallbackTitle: string;
  /** Requests waiting behind the shown one (the provider's queue). */
  readonly waiting: number;
  /** Requests before this dialog's own one in a shared controller. */
  readonly ahead: number;
  readonly labels: { readonly all: ToolgateLabels; readonly confirm: ConfirmToolLabels };
  /** The actions bound to the shown request (`approve` here ignores the confirm step: use {@link approve}). */
  readonly actions: ToolConfirmationActions;
  /** The deliberate second step asked of this request (only for high risk), if any. */
  readonly step: ConfirmStep | undefined;
  readonly holdMs: number;
  /** Whether Approve can act now: the request is under review and the confirm step is satisfied. */
  readonly canApprove: boolean;
  /** Approve, when {@link canApprove}. */
  approve(): void;
  /** Deny, with the reason typed in the deny-reason field when there is one. */
  deny(): void;
  /** Close the dialog after an outcome. */
  close(): void;
  /** Escape: deny while a person may still say no, close after an outcome, nothing while a call runs. */
  escape(): void;
  /** Whether the outcome layout's Close can act (nothing runs any more). */
  readonly closable: boolean;
  /** Whether the review layout (Deny, Approve) shows: from the first look until the first outcome. */
  readonly reviewing: boolean;
  /** Whether the editor of the arguments is open (`editing`, or its draft being checked). */
  readonly editing: boolean;
  /** Whether "Allow for this session" and "Deny for this session" are offered. */
  readonly offerGrants: boolean;
  /** The queue's controller, whose policy offers scoped grants; `null` for a dialog of one proposed call. */
  readonly controller: ConfirmationController | null;
  /** The clock the time left before an expiry is read from. */
  readonly clock: ToolgateClock;
  readonly typed: string;
  setTyped(text: string): void;
  /** Whether the reason field is offered (`denyWithReason`, true unless the root says `false`). */
  readonly denyWithReason: boolean;
  /** The reason typed so far; {@link deny} sends it, trimmed, when {@link denyWithReason} and not empty. */
  readonly reason: string;
  /** Set the reason, from a field of your own layout. */
  setReason(text: string): void;
  readonly holding: boolean;
  setHolding(holding: boolean): void;
  /** Whether the "Respond instead" field is open (Escape then closes it, and denies nothing). */
  readonly responding: boolean;
  setResponding(open: boolean): void;
  /** Parts give their element for the dialog's focus rules (`null` when they unmount). */
  focusTarget(target: FocusTarget, element: HTMLElement | null): void;
  /** Focus the first of `targets` that a part gave. */
  focusFirst(...targets: FocusTarget[]): void;
  /** Once the dialog has closed, focus the element that had focus when it opened (if it is still there). */
  returnFocus(): void;
}

export const ConfirmToolDialogContext = createContext<ConfirmToolDialogContextValue | null>(null);

/**
 * The state and actions of the confirmation dialog around it: for parts of your own inside
 * `<ConfirmToolDialogRoot>`. Throws outside one.
 *
 * @example
 * function Reviewer() {
 *   const { view, status } = useConfirmToolDialog();
 *   return <p>{view?.toolName}: {status}</p>;
 * }
 */
export function useConfirmToolDialog(): ConfirmToolDialogContextValue {
  const value = useContext(ConfirmToolDialogContext);
  if (value === null) throw new Error('toolgate: a part of the confirmation dialog is used outside <ConfirmToolDialogRoot>.');
  return value;
}

/**
 * The consumer's handler first, then the part's own unless the consumer prevented it (Radix's
 * `composeEventHandlers`).
 */
export function composeHandlers<E extends SyntheticEvent | Event>(theirs: ((event: E) => void) | undefined, ours: (event: E) => void): (event: E) => void {
  return (event) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}

/** Swallow held-down Enter and Space on the dialog's buttons: a key repeat must never act twice, nor on the next request. */
export function ignoreRepeat(event: KeyboardEvent<HTMLElement>): void {
  if (event.repeat && (event.key === 'Enter' || event.key === ' ')) event.preventDefault();
}

/**
 * A ref that gives the element to the dialog's focus rules as `target`, and to `forwarded` (a
 * part's own ref). Stable while both are, so the element is not given again on every render.
 */
export function useFocusTarget<T extends HTMLElement>(target: FocusTarget | undefined, forwarded?: ForwardedRef<T>): (element: T | null) => void {
  const { focusTarget } = useConfirmToolDialog();
  return useCallback(
    (element: T | null) => {
      if (target !== undefined) focusTarget(target, element);
      if (typeof forwarded === 'function') forwarded(element);
      else if (forwarded) forwarded.current = element;
    },
    [focusTarget, target, forwarded],
  );
}
