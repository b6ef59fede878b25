/**
 * What a card shows of a call's approval: its approval record, read through the record store's
 * selector, where the card sits inside a provider whose store holds the call; the call's own
 * derived fields elsewhere (a card given another store, a list without a provider). Both agree:
 * the call's fields are mirrored from the record (docs/architecture.md, "The approval record").
 */
import { useCallback, useMemo } from 'react';
import { approvalMarkOf } from '../core/approval/approval-record';
import { approvalFieldsOf } from '../core/stream/reducer';
import { selectApprovalRecord, type ApprovalRecordsState } from '../core/approval/approval-records';
import type { ToolStreamStore } from '../core/stream/store';
import type { ToolCall } from '../core/stream/tool-call';
import { useToolgateContext } from '../provider/context';
import { useStoreSelector, type ReadableStore } from './use-store-selector';

/** The approval fields a card reads, named as on `ToolCall`. */
export type ShownApproval = Pick<
  ToolCall,
  'approval' | 'approvedArguments' | 'approvalEdited' | 'approvalGrant' | 'approvalReason' | 'approvalBy' | 'approvalRuleId' | 'approvalRuleLabel'
>;

const EMPTY: ApprovalRecordsState = Object.freeze({ records: Object.freeze({}) });
const NO_RECORDS: ReadableStore<ApprovalRecordsState> = { getState: () => EMPTY, getInitialState: () => EMPTY, subscribe: () => () => {} };

/** The record store that holds the approvals of `store`'s calls, when the provider's store is that store. */
export function useRecordsOf(store: ToolStreamStore | undefined): ReadableStore<ApprovalRecordsState> {
  const context = useToolgateContext();
  return context !== null && (store === undefined || store === context.store) ? context.confirmations.records : NO_RECORDS;
}

/**
 * The approval of `call` as its card shows it: from its record where there is one, else from the call.
 */
export function useShownApproval(call: ToolCall | undefined, store?: ToolStreamStore): ShownApproval {
  const records = useRecordsOf(store);
  const callId = call?.callId;
  const select = useCallback((state: ApprovalRecordsState) => (callId === undefined ? undefined : selectApprovalRecord(state, callId)), [callId]);
  const record = useStoreSelector(records, select, Object.is);
  // On the fields, not the call: the same object while only the arguments stream, so what the
  // card memoises on it (its notes) is not rendered again for each fragment.
  const { approval, approvedArguments, approvalEdited, approvalGrant, approvalReason, approvalBy, approvalRuleId, approvalRuleLabel } = call ?? {};
  return useMemo((): ShownApproval => {
    if (record !== undefined) return approvalFieldsOf(approvalMarkOf(record));
    return { approval, approvedArguments, approvalEdited, approvalGrant, approvalReason, approvalBy, approvalRuleId, approvalRuleLabel };
  }, [record, approval, approvedArguments, approvalEdited, approvalGrant, approvalReason, approvalBy, approvalRuleId, approvalRuleLabel]);
}
