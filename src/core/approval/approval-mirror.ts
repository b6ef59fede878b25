/**
 * The one place a call's `approval*` fields are written: each approval record (`approval-record.ts`)
 * is mirrored into the tool-call store through its `markApproval` action, so a card that reads
 * the call and one that reads the record show the same thing (docs/architecture.md, "The approval
 * record"). Nothing else in the kit calls `markApproval`.
 */
import { approvalMarkOf, type ApprovalRecord } from './approval-record';
import type { ApprovalRecordStore, ApprovalRecordsState } from './approval-records';
import { callOf as readCall } from '../stream/call-table';
import type { ApprovalMark } from '../stream/local-events';

/**
 * The part of the tool-call store the mirror reads and writes (a `ToolStreamStore` fits).
 */
export interface MirroredCalls {
  getState(): {
    readonly calls: Readonly<Record<string, object>>;
    /** The store's action: where the call stands with its approval. */
    markApproval?(callId: string, mark: ApprovalMark): void;
  };
}

/** The mirrors running, by record store and call store: one per pair, however many ask for it. */
const running = new WeakMap<ApprovalRecordStore, Map<MirroredCalls, { count: number; stop: () => void }>>();

/**
 * Keep the calls of `calls` showing their records in `records`, from now on: every record there
 * now, then each record that changes. A record whose call the store does not show is left alone
 * (the request may be for another page's call). Asked twice for one pair, it mirrors once; the
 * returned function stops it when every asker has stopped.
 */
export function mirrorApprovalRecords(records: ApprovalRecordStore, calls: MirroredCalls): () => void {
  let pairs = running.get(records);
  if (pairs === undefined) running.set(records, (pairs = new Map()));
  const known = pairs;
  let mirror = known.get(calls);
  if (mirror === undefined) {
    const apply = (record: ApprovalRecord): void => mirrorRecord(record, calls);
    for (const record of Object.values(records.getState().records)) apply(record);
    const unsubscribe = records.subscribe((state: ApprovalRecordsState, previous: ApprovalRecordsState) => {
      for (const [callId, record] of Object.entries(state.records)) if (previous.records[callId] !== record) apply(record);
    });
    mirror = { count: 0, stop: unsubscribe };
    known.set(calls, mirror);
  }
  const own = mirror;
  own.count += 1;
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--own.count > 0) return;
    own.stop();
    known.delete(calls);
  };
}

/**
 * Mark one call as its record says, when the store shows it. The store's reducer compares the mark
 * with what the call shows and ignores one that changes nothing, so the mirror names no field:
 * an attribute the call carries is added to the record's mark (`approvalMarkOf`) and the reducer.
 */
function mirrorRecord(record: ApprovalRecord, calls: MirroredCalls): void {
  const state = calls.getState();
  if (state.markApproval === undefined || readCall(state, record.callId) === undefined) return;
  state.markApproval(record.callId, approvalMarkOf(record));
}
