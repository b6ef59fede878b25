import { useCallback, useMemo } from 'react';
import type { ConfirmationController, ConfirmationState, ConfirmationView, EditResult } from '../core/approval/confirmation-types';
import type { ReadableStore } from './use-store-selector';
import { useToolgateContext } from '../provider/context';
import { useStoreSelector } from './use-store-selector';

/**
 * The approval a tool call waits for: the confirmation request that carries its `callId` (an app
 * tool with `confirm`, or the server's before-tool-call gate), with actions bound to that request.
 *
 * @example
 * const approval: CallApproval | null = useCallApproval(callId);
 * approval?.approve(); // the same request the dialog shows: one approval, at most one run
 */
export interface CallApproval {
  /** The request, as the confirmation controller shows it (arguments, fingerprint, `can`). */
  readonly request: ConfirmationView;
  /** How many requests are shown or wait before it: Approve works once it is shown (`request.can.approve`). */
  readonly ahead: number;
  /** Approve it; `false` when it is not under review (not shown yet, or already answered). */
  approve(): boolean;
  /** Deny it (shown or still waiting), with an optional reason. */
  deny(reason?: string): boolean;
  /**
   * Replace its arguments with `draft`, through the dialog's edit path (checked again, a
   * fingerprint of their own, marked edited): only while it is shown, editable and under review.
   */
  submitEdit(draft: unknown): Promise<EditResult>;
}

interface Found {
  readonly view: ConfirmationView | null;
  readonly ahead: number;
}

const NONE: Found = { view: null, ahead: 0 };
const sameFound = (a: Found, b: Found) => a.view === b.view && a.ahead === b.ahead;
// Stands in outside a provider, so the hook is called unconditionally and finds nothing. A still
// store, not a controller: a list or card without a provider does not carry the confirmation flow.
const STILL: ConfirmationState = Object.freeze({ status: 'idle', current: null, queue: Object.freeze([]), waiting: 0, last: null });
const NO_CONFIRMATIONS: ReadableStore<ConfirmationState> = {
  getState: () => STILL,
  getInitialState: () => STILL,
  subscribe: () => () => {},
};

/**
 * Only a request still waiting for its answer counts (one a person can still deny, as the
 * table says): once approved it runs, and the card says so through the call.
 */
function find(state: ConfirmationState, callId: string): Found {
  const all = state.current ? [state.current, ...state.queue] : state.queue;
  const at = all.findIndex((view) => view.callId === callId && view.can.deny);
  return at < 0 ? NONE : { view: all[at] as ConfirmationView, ahead: at };
}

/**
 * Whether the call `callId` waits for a person's approval, and Approve and Deny for it. Both drive
 * the confirmation controller's own request (the one `<ConfirmToolDialog />` shows), so a click
 * here, one in the dialog and a spoken `approve()` together give one approval and at most one run.
 * Re-renders only when this call's request changes. `null` when nothing waits (or outside a provider).
 *
 * @example
 * function ApproveInline({ callId }: { callId: string }) {
 *   const approval = useCallApproval(callId);
 *   if (!approval) return null;
 *   return <button disabled={!approval.request.can.approve} onClick={approval.approve}>Approve</button>;
 * }
 */
export function useCallApproval(callId: string, controller?: ConfirmationController): CallApproval | null {
  const context = useToolgateContext();
  const confirmations = controller ?? context?.confirmations;
  const select = useCallback((state: ConfirmationState) => find(state, callId), [callId]);
  const { view, ahead } = useStoreSelector(confirmations ?? NO_CONFIRMATIONS, select, sameFound);
  const id = view?.id;
  return useMemo(() => {
    if (view === null || id === undefined || confirmations === undefined) return null;
    const target = { requestId: id };
    return {
      request: view,
      ahead,
      approve: () => confirmations.approve(target),
      deny: (reason?: string) => confirmations.deny(typeof reason === 'string' ? reason : undefined, target),
      submitEdit: (draft: unknown) => {
        // As the dialog's own editor: open the edit, then submit (a closed one refuses with a reason).
        confirmations.edit(target);
        return confirmations.submitEdit(draft, target);
      },
    };
  }, [confirmations, view, id, ahead]);
}
