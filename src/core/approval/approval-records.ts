/**
 * The store of approval records, one per call (`approval-record.ts`), read as
 * `client.approvals.records`. It has one writer: the confirmation controller that makes it holds
 * the `write` function, and nothing else can reach it (docs/architecture.md, "The approval record").
 */
import { nextApprovalRecord, type ApprovalRecord, type ApprovalRecordChange } from './approval-record';
import { createExternalStore, type ErrorReporter } from '../external-store';

/**
 * The records, by call id.
 *
 * @example
 * const { records }: ApprovalRecordsState = client.approvals.records.getState();
 */
export interface ApprovalRecordsState {
  readonly records: Readonly<Record<string, ApprovalRecord>>;
}

/**
 * The approval records as a read-only external store (`getState/getInitialState/subscribe`), as
 * every store of the kit: a hook reads it through `useSyncExternalStore`.
 *
 * @example
 * const stop = client.approvals.records.subscribe((state) => console.log(selectApprovalRecord(state, 'c1')?.status));
 */
export interface ApprovalRecordStore {
  getState(): ApprovalRecordsState;
  getInitialState(): ApprovalRecordsState;
  subscribe(listener: (state: ApprovalRecordsState, previous: ApprovalRecordsState) => void): () => void;
}

const EMPTY: ApprovalRecordsState = Object.freeze({ records: Object.freeze({}) });

/**
 * The record of call `callId`, or `undefined` when no approval was asked for it.
 *
 * @example
 * const record = selectApprovalRecord(client.approvals.records.getState(), 'c1');
 * record?.status; // 'awaiting', 'approved', 'denied', …
 */
export function selectApprovalRecord(state: ApprovalRecordsState, callId: string): ApprovalRecord | undefined {
  return Object.hasOwn(state.records, callId) ? state.records[callId] : undefined;
}

/** The store, and the one function that writes it (kept by the controller that made it). */
export interface ApprovalRecordsWriter {
  readonly store: ApprovalRecordStore;
  /** Apply a change; returns the record after it (the same object when it changed nothing). */
  write(change: ApprovalRecordChange): ApprovalRecord | undefined;
}

/** Make a record store for one controller. Internal: `createConfirmationController` calls it. */
export function createApprovalRecords(options: { onError?: ErrorReporter | undefined; now?: () => number } = {}): ApprovalRecordsWriter {
  const inner = createExternalStore<ApprovalRecordsState>(EMPTY, { onError: options.onError });
  const now = options.now ?? Date.now;
  const store: ApprovalRecordStore = Object.freeze({
    getState: inner.getState,
    getInitialState: () => EMPTY,
    subscribe: inner.subscribe,
  });
  const write = (change: ApprovalRecordChange): ApprovalRecord | undefined => {
    const state = inner.getState();
    const previous = selectApprovalRecord(state, change.callId);
    const next = nextApprovalRecord(previous, change, now());
    if (next === undefined || next === previous) return previous;
    inner.setState(Object.freeze({ records: Object.freeze({ ...state.records, [change.callId]: next }) }), true);
    return next;
  };
  return { store, write };
}
