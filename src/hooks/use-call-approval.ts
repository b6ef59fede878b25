import { useCallback, useMemo } from 'react';
import type { ApprovalRecord } from '../core/approval/approval-record';
import { selectApprovalRecord, type ApprovalRecordsState } from '../core/approval/approval-records';
import type { ConfirmationState, ConfirmationView } from '../core/approval/confirmation-types';
import type { ConfirmationController, EditResult } from '../core/approval/confirmation-controller-types';
import type { ReadableStore } from './use-store-selector';
import { useToolgateContext } from '../provider/context';
import { useStoreSelector } from './use-store-selector';

/**
 * Where a tool call stands with its approval: its approval record (plain data, kept after the
 * answer), and, while a person may still answer, the confirmation request that carries its
 * `callId` (an app tool with `confirm`, or the server's before-tool-call gate), with actions bound
 * to that request.
 *
 * @example
 * const approval: CallApproval | null = useCallApproval(callId);
 * approval?.approve(); // the same request the dialog shows: one approval, at most one run
 * approval?.record?.status; // 'awaiting', then 'approved', 'denied', …, also once answered
 */
export interface CallApproval {
  /**
   * The request while it waits for an answer, as the confirmation controller shows it (arguments,
   * fingerprint, `can`); `null` once it was answered (the record says how).
   */
  readonly request: ConfirmationView | null;
  /** How many requests are shown or wait before it: Approve works once it is shown (`request.can.approve`). */
  readonly ahead: number;
  /**
   * The call's approval record (`client.approvals.records`): status, decision, who decided, what
   * runs, fingerprints and times. `null` when no approval was asked for the call yet.
   */
  readonly record: ApprovalRecord | null;
  /** Approve it; `false` when it is not under review (not shown yet, or already answered). */
  approve(): boolean;
  /** Deny it (shown or still waiting), with an optional reason; `false` once answered. */
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
const NO_RECORDS_STATE: ApprovalRecordsState = Object.freeze({ records: Object.freeze({}) });
const NO_RECORDS: ReadableStore<ApprovalRecordsState> = {
  getState: () => NO_RECORDS_STATE,
  getInitialState: () => NO_RECORDS_STATE,
  subscribe: () => () => {},
};
const NOT_WAITING: EditResult = Object.freeze({
  ok: false,
  issues: Object.freeze([Object.freeze({ path: Object.freeze([]), message: 'The request was already answered' })]),
});

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
 * Where the call `callId` stands with its approval, and Approve and Deny while it waits. The
 * record is read from the controller's approval records (`selectApprovalRecord`), the one place
 * it is written, and stays after the answer. Both actions drive the controller's own request (the
 * one `<ConfirmToolDialog />` shows), so a click here, one in the dialog and a spoken `approve()`
 * together give one approval and at most one run. Re-renders only when this call's request or
 * record changes. `null` when no approval was asked for the call (or outside a provider).
 *
 * @example
 * function ApproveInline({ callId }: { callId: string }) {
 *   const approval = useCallApproval(callId);
 *   if (!approval?.request) return approval?.record ? <span>{approval.record.status}</span> : null;
 *   return <button disabled={!approval.request.can.approve} onClick={approval.approve}>Approve</button>;
 * }
 */
export function useCallApproval(callId: string, controller?: ConfirmationController): CallApproval | null {
  const context = useToolgateContext();
  const confirmations = controller ?? context?.confirmations;
  const select = useCallback((state: ConfirmationState) => find(state, callId), [callId]);
  const { view, ahead } = useStoreSelector(confirmations ?? NO_CONFIRMATIONS, select, sameFound);
  const selectRecord = useCallback((state: ApprovalRecordsState) => selectApprovalRecord(state, callId) ?? null, [callId]);
  const record = useStoreSelector(confirmations?.records ?? NO_RECORDS, selectRecord, Object.is);
  const id = view?.id;
  return useMemo(() => {
    if ((view === null && record === null) || confirmations === undefined) return null;
    if (view === null || id === undefined) {
      // Answered: the record says how; nothing is left to act on.
      return { request: null, ahead: 0, record, approve: () => false, deny: () => false, submitEdit: () => Promise.resolve(NOT_WAITING) };
    }
    const target = { requestId: id };
    return {
      request: view,
      ahead,
      record,
      approve: () => confirmations.approve(target),
      deny: (reason?: string) => confirmations.deny(typeof reason === 'string' ? reason : undefined, target),
      submitEdit: (draft: unknown) => {
        // As the dialog's own editor: open the edit, then submit (a closed one refuses with a reason).
        confirmations.edit(target);
        return confirmations.submitEdit(draft, target);
      },
    };
  }, [confirmations, view, id, ahead, record]);
}
