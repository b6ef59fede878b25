/**
 * How a confirmation request's approval and outcome become changes to its call's approval record
 * (`approval-record.ts`): the marks the controller's flow writes when a request ends.
 */
import type { ConfirmationOutcome, ConfirmationView } from './confirmation-types';
import type { ApprovalDecisionKind } from './approval-record';
import type { ApprovalMark } from '../stream/local-events';

/** The mark a call gets when its request ends without an approval; `undefined` when nothing is to be marked (withdrawn, done). */
export function endedMark(outcome: ConfirmationOutcome, view: Pick<ConfirmationView, 'decidedBy'>): ApprovalMark | undefined {
  if (outcome.status === 'done') return undefined;
  if (outcome.status === 'expired') return { approval: 'expired' };
  // A person answered in the tool's place, or withdrew the request: neither is a rejection.
  if (outcome.status === 'responded') return { approval: 'responded' };
  if (outcome.status === 'cancelled') return { approval: 'cancelled', ...(outcome.reason === undefined ? {} : { reason: outcome.reason }) };
  const reason = outcome.reason;
  return {
    approval: 'denied',
    ...(reason === undefined ? {} : { reason }),
    ...(view.decidedBy?.by === 'rule' && view.decidedBy.origin === 'grant' ? { grant: view.decidedBy.ruleId } : {}),
  };
}

/** The decision kind an outcome records. */
export function decisionOfOutcome(outcome: ConfirmationOutcome): ApprovalDecisionKind | undefined {
  switch (outcome.status) {
    case 'done':
      return 'approve';
    case 'expired':
      return 'expire';
    case 'responded':
      return 'respond';
    case 'cancelled':
      return 'cancel';
    case 'denied':
      return 'deny';
    // Refused, failed or uncertain before it was approved: nobody decided (the arguments could not
    // be shown, the call changed); it reads as a denial with its reason.
    default:
      return undefined;
  }
}
