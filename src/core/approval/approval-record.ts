/**
 * One approval record per call: where the call stands with its approval, who decided it, what was
 * approved and when, as plain frozen data. The confirmation controller is its only writer (through
 * `approval-records.ts`); a card reads it with `useCallApproval(callId)`, and the call's own
 * `approval*` fields are derived from it in one place (`approval-mirror.ts`). See
 * docs/architecture.md, "The approval record".
 *
 * This file holds the record's shape and its one transition function: which change a record takes,
 * and which it refuses (a decision is final; the server's last word may overrule an approval).
 */
import type { JsonValue } from '../json/json-value';
import type { ApprovalMark, ToolApproval } from '../stream/local-events';

/**
 * The kind of decision that ended a request: a person's (or a grant's, a list's, a rule's)
 * `approve`, `deny`, `respond` or `cancel`, or `expire` when its time ran out first.
 *
 * @example
 * const kind: ApprovalDecisionKind = record.decision ?? 'approve';
 */
export type ApprovalDecisionKind = 'approve' | 'deny' | 'respond' | 'cancel' | 'expire';

/**
 * Who decided: a person looking at the request, a standing grant, "Approve all" / "Deny all" over a
 * list, or another rule (the app's, or a scoped grant). A standing grant is a rule too: for it and
 * for any other rule, the record names the rule in `ruleId` and `ruleLabel`.
 *
 * @example
 * const automatic = (by: ApprovalDecidedBy | undefined) => by === 'grant' || by === 'rule';
 */
export type ApprovalDecidedBy = 'person' | 'grant' | 'batch' | 'rule';

/**
 * Where one call stands with its approval. Plain and frozen: a new record replaces the old one on
 * each change, so a view can compare records by identity.
 *
 * @example
 * const record: ApprovalRecord | undefined = selectApprovalRecord(client.approvals.records.getState(), 'c1');
 * if (record?.status === 'approved' && record.edited) showEditedMark();
 */
export interface ApprovalRecord {
  readonly callId: string;
  /** The id of the controller's confirmation request that asked (`ConfirmationView.id`); absent for an answer given outside the queue. */
  readonly requestId: string | undefined;
  readonly toolName: string;
  /** `awaiting` while a person may still answer; then how it ended. */
  readonly status: ToolApproval;
  /** The decision that ended it; absent while it waits. */
  readonly decision: ApprovalDecisionKind | undefined;
  /** Who decided it; absent while it waits, and for an expiry or an answer the far side refused. */
  readonly by: ApprovalDecidedBy | undefined;
  /** The rule that decided it (a standing grant's rule among them), when one did. */
  readonly ruleId?: string | undefined;
  /** That rule's label, for its card ("Allowed by …"), when the rule has one. */
  readonly ruleLabel?: string | undefined;
  /** The standing grant that decided it (its rule's id), when one did. */
  readonly grant: string | undefined;
  /** A person edited the arguments before approving them. */
  readonly edited: boolean;
  /** Why it was denied, cancelled, refused or expired, when a reason was given. */
  readonly reason: string | undefined;
  /** What runs once approved: the snapshot approved (a person's edit, or the arguments asked about). */
  readonly approvedArguments: JsonValue | undefined;
  /** SHA-256 hex of the canonical arguments shown (and, once approved, of what was approved). */
  readonly argumentsFingerprint: string | undefined;
  /** The tool definition's fingerprint the request was bound to, when it was known. */
  readonly definitionFingerprint: string | undefined;
  /** When the request was taken in, it was decided, and the record last changed (ms since the epoch). */
  readonly requestedAt: number;
  readonly decidedAt: number | undefined;
  readonly updatedAt: number;
}

/** Who decided a request, as the controller knows it (`ConfirmationDecider` fits). */
export type RecordDecider =
  | { readonly by: 'person' }
  | { readonly by: 'batch' }
  | { readonly by: 'rule'; readonly ruleId?: string; readonly label?: string | undefined; readonly origin?: string | undefined };

/**
 * A change to a call's record, as the controller writes it. Internal: only the controller's flow
 * (and its `noteAnswer`) makes these.
 */
export type ApprovalRecordChange =
  | { readonly kind: 'requested'; readonly callId: string; readonly requestId: string; readonly toolName: string }
  | {
      readonly kind: 'approved';
      readonly callId: string;
      readonly requestId: string;
      readonly toolName: string;
      readonly approvedArguments: JsonValue;
      readonly edited: boolean;
      readonly decidedBy: RecordDecider | null;
      readonly argumentsFingerprint: string | undefined;
      readonly definitionFingerprint: string | undefined;
    }
  | {
      readonly kind: 'ended';
      readonly callId: string;
      readonly requestId: string | undefined;
      readonly toolName: string;
      readonly mark: ApprovalMark;
      readonly decision: ApprovalDecisionKind | undefined;
      readonly decidedBy: RecordDecider | null;
      readonly argumentsFingerprint?: string | undefined;
      readonly definitionFingerprint?: string | undefined;
      /** The far side's word on an answer already given (`noteAnswer`): it may overrule an approval. */
      readonly overrule?: boolean;
    };

/**
 * The record after `change`, or `previous` itself when the change is refused or changes nothing.
 * A decision is final (docs/protocol.md, "Expiry"), with one exception: an approval may end
 * `expired`, `refused` or `denied` afterwards, when the answer never counted where it went (the
 * server refused it, or the page sent a denial in its place because the call changed).
 */
export function nextApprovalRecord(previous: ApprovalRecord | undefined, change: ApprovalRecordChange, now: number): ApprovalRecord | undefined {
  const from = previous?.status;
  if (change.kind === 'requested') {
    // A request repeated (a resume) or one for a call already decided changes nothing.
    if (previous !== undefined) return previous;
    return freeze({
      callId: change.callId,
      requestId: change.requestId,
      toolName: change.toolName,
      status: 'awaiting',
      decision: undefined,
      by: undefined,
      grant: undefined,
      edited: false,
      reason: undefined,
      approvedArguments: undefined,
      argumentsFingerprint: undefined,
      definitionFingerprint: undefined,
      requestedAt: now,
      decidedAt: undefined,
      updatedAt: now,
    });
  }
  const base = previous ?? {
    callId: change.callId,
    requestId: change.requestId,
    toolName: change.toolName,
    requestedAt: now,
    argumentsFingerprint: undefined,
    definitionFingerprint: undefined,
  };
  if (change.kind === 'approved') {
    if (from !== undefined && from !== 'awaiting') return previous;
    return freeze({
      ...base,
      status: 'approved',
      decision: 'approve',
      by: byOf(change.decidedBy, 'approve'),
      ruleId: ruleOf(change.decidedBy),
      ruleLabel: ruleLabelOf(change.decidedBy),
      grant: grantOf(change.decidedBy),
      edited: change.edited,
      reason: undefined,
      approvedArguments: change.approvedArguments,
      argumentsFingerprint: change.argumentsFingerprint ?? base.argumentsFingerprint,
      definitionFingerprint: change.definitionFingerprint ?? base.definitionFingerprint,
      decidedAt: now,
      updatedAt: now,
    });
  }
  const to = change.mark.approval;
  const overruled = change.overrule === true && from === 'approved' && (to === 'expired' || to === 'refused' || to === 'denied');
  if (from !== undefined && from !== 'awaiting' && !overruled) return previous;
  // The far side's word on an answer already given: who decided it stays as it was.
  // A note from outside the queue names nobody: the page or the server, not a decider.
  const by = overruled || change.overrule === true ? previous?.by : byOf(change.decidedBy, change.decision);
  const next: ApprovalRecord = {
    ...base,
    status: to,
    decision: overruled ? previous?.decision : change.decision,
    by,
    ruleId: overruled || change.overrule === true ? previous?.ruleId : ruleOf(change.decidedBy),
    ruleLabel: overruled || change.overrule === true ? previous?.ruleLabel : ruleLabelOf(change.decidedBy),
    grant: change.mark.grant ?? (overruled ? previous?.grant : undefined),
    edited: overruled ? (previous?.edited ?? false) : false,
    reason: change.mark.reason,
    // Only an approval carries what runs; one overruled ran nothing, but the record keeps what was approved.
    approvedArguments: overruled ? previous?.approvedArguments : undefined,
    argumentsFingerprint: change.argumentsFingerprint ?? base.argumentsFingerprint,
    definitionFingerprint: change.definitionFingerprint ?? base.definitionFingerprint,
    decidedAt: overruled ? previous?.decidedAt : now,
    updatedAt: now,
  };
  if (previous !== undefined && sameRecord(previous, next)) return previous;
  return freeze(next);
}

/** The rule that decided, when a policy did. */
const ruleOf = (decider: RecordDecider | null): string | undefined => (decider?.by === 'rule' ? decider.ruleId : undefined);
const ruleLabelOf = (decider: RecordDecider | null): string | undefined => (decider?.by === 'rule' ? decider.label : undefined);

/** The standing grant that decided (its rule's id), when one did. */
const grantOf = (decider: RecordDecider | null): string | undefined => (decider?.by === 'rule' && decider.origin === 'grant' ? decider.ruleId : undefined);

function byOf(decider: RecordDecider | null, decision: ApprovalDecisionKind | undefined): ApprovalDecidedBy | undefined {
  if (decision === undefined || decision === 'expire') return undefined;
  // A standing grant answers as the rule it is kept as; the record still says a grant decided.
  if (grantOf(decider) !== undefined) return 'grant';
  return decider?.by ?? 'person';
}

const KEYS = [
  'callId',
  'requestId',
  'toolName',
  'status',
  'decision',
  'by',
  'ruleId',
  'ruleLabel',
  'grant',
  'edited',
  'reason',
  'approvedArguments',
  'argumentsFingerprint',
  'definitionFingerprint',
  'requestedAt',
  'decidedAt',
] as const satisfies readonly (keyof ApprovalRecord)[];

function sameRecord(a: ApprovalRecord, b: ApprovalRecord): boolean {
  return KEYS.every((key) => a[key] === b[key]);
}

function freeze(record: ApprovalRecord): ApprovalRecord {
  return Object.freeze(record);
}

/**
 * The call fields derived from a record: what `markApproval` is given, so that a call shows exactly
 * its record. The one projection from the record to the call (docs/architecture.md, "The approval record").
 *
 * @example
 * store.getState().markApproval(record.callId, approvalMarkOf(record));
 */
export function approvalMarkOf(record: ApprovalRecord): ApprovalMark {
  return {
    approval: record.status,
    // What runs is shown only for an approval that still counts.
    ...(record.status === 'approved' && record.approvedArguments !== undefined ? { approvedArguments: record.approvedArguments } : {}),
    ...(record.status === 'approved' && record.edited ? { edited: true } : {}),
    ...(record.grant === undefined || (record.status !== 'approved' && record.status !== 'denied') ? {} : { grant: record.grant }),
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    // The rule that answered (a standing grant's among them), for the card's "Allowed by …" (an approval or a denial it gave).
    ...((record.by !== 'rule' && record.by !== 'grant') || record.ruleId === undefined || (record.status !== 'approved' && record.status !== 'denied')
      ? {}
      : { by: 'rule' as const, ruleId: record.ruleId, ...(record.ruleLabel === undefined ? {} : { ruleLabel: record.ruleLabel }) }),
  };
}
