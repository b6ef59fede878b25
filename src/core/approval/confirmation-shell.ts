/**
 * What a confirmation controller is before any request reaches it: its state (idle, nothing
 * queued), its standing grants and its approval records, with the one note on them that needs no
 * request (`noteAnswer`). The flow that takes requests in (./confirmation-flow, with the
 * controller's methods in ./confirmation-controller) joins the same shell; the client loads it by
 * `import()` when the first request arrives (docs/architecture.md, "What loads when").
 */

import { createExternalStore, type ExternalStore } from '../external-store';
import { createApprovalRecords, selectApprovalRecord, type ApprovalRecordsWriter } from './approval-records';
import type { ConfirmationState, ConfirmationView } from './confirmation-types';
import type { ApprovalNote, ConfirmationClock, ConfirmationControllerOptions } from './confirmation-controller-types';
import { createToolGrants, type ToolGrants } from './tool-grants';

/** The queue of a state with nothing waiting (one frozen array, so a selector sees no change). */
export const EMPTY_QUEUE: readonly ConfirmationView[] = Object.freeze([]);

/** A controller's state before any request. */
export const INITIAL_STATE: ConfirmationState = Object.freeze({ status: 'idle', current: null, queue: EMPTY_QUEUE, waiting: 0, last: null });

/** The wall clock and the global timers. */
const SYSTEM_CLOCK: ConfirmationClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The parts of a controller that exist from its creation; its flow reads and changes them. */
export interface ConfirmationShell {
  readonly store: ExternalStore<ConfirmationState>;
  readonly grants: ToolGrants;
  /** The approval records, one per call; the flow is their writer, with {@link ConfirmationShell.recordNote}. */
  readonly records: ApprovalRecordsWriter;
  readonly clock: ConfirmationClock;
  /** `ConfirmationController.noteAnswer`: what became of an answer after it left the queue. */
  recordNote(callId: unknown, note: unknown): boolean;
}

/** Make the parts a controller has before any request. */
export function createConfirmationShell(options: ConfirmationControllerOptions): ConfirmationShell {
  const store = createExternalStore(INITIAL_STATE, { onError: options.onError });
  const grants = options.grants ?? createToolGrants({ ...(options.onError ? { onError: options.onError } : {}) });
  const clock = options.clock ?? SYSTEM_CLOCK;
  const records = createApprovalRecords({ onError: options.onError, now: () => clock.now() });
  return {
    store,
    grants,
    records,
    clock,
    recordNote(callId, note) {
      if (typeof callId !== 'string' || callId === '' || typeof note !== 'object' || note === null) return false;
      const { status, reason, toolName } = note as Partial<Record<keyof ApprovalNote, unknown>>;
      if (status !== 'denied' && status !== 'refused' && status !== 'expired') return false;
      const previous = selectApprovalRecord(records.store.getState(), callId);
      const next = records.write({
        kind: 'ended',
        callId,
        requestId: previous?.requestId,
        toolName: typeof toolName === 'string' ? toolName : (previous?.toolName ?? ''),
        mark: { approval: status, ...(typeof reason === 'string' ? { reason } : {}) },
        decision: status === 'denied' ? 'deny' : undefined,
        decidedBy: null,
        overrule: true,
      });
      return next !== previous;
    },
  };
}
