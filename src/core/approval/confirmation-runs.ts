/**
 * What an approved request runs: `confirmTool` then `invokeTool` with the same snapshot
 * (docs/protocol.md, "Rooms"), `onApprove` on the path without a room, and the application's check after an unknown
 * outcome. Each run asks through {@link ask}, the one place that decides whether an answer still
 * counts, and ends through the controller's `finish(entry, outcome)`.
 */

import type { ConfirmationEvent } from './confirmation-machine';
import { decisionEvent, permits, type Entry } from './confirmation-request';
import type { ApprovalContext, CheckOutcome, ConfirmationOutcome, OutcomeCheckContext, OutcomeCheckResult } from './confirmation-types';
import type { Fingerprint } from '../json/fingerprint';
import { classifyRoomError, reasonOf, type ToolRoom } from '../session/room';
import { APPROVAL_MISMATCH, changedSinceShown, toolMismatchReason, type HeldCall } from './approval-binding';

/** What a run needs of the controller. */
export interface RunHost {
  /** Apply an event through the table; `false` (and no change) when it does not allow it. */
  fire(entry: Entry, event: ConfirmationEvent): boolean;
  /** End the request in `outcome` (through the one event that leads there), publish, tell the callbacks. */
  finish(entry: Entry, outcome: ConfirmationOutcome): boolean;
  publish(): void;
  /** Record the approval of the entry's call: what runs, who decided it (the records' one writer is the flow). */
  recordApproved(entry: Entry): void;
  /** A callback the kit was given threw (or rejected): report it under the one error policy. */
  report(error: unknown, what: string): void;
  /** Tell the application something went wrong that is not a thrown callback (`onError(reason, detail, code)`). */
  tell(reason: string, detail: unknown, code: string): void;
}

type Answer<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Call user code (a room, `onApprove`, `checkOutcome`) and wait for its answer, whether it
 * returns, rejects or throws at once. Resolves `null` when the answer no longer counts: the request
 * moved on meanwhile (a retry started a new attempt, a withdrawal, …), so a late answer never
 * ends the attempt after it.
 */
async function ask<T>(entry: Entry, call: () => T | PromiseLike<T>): Promise<Answer<T> | null> {
  const attempt = entry.attempt;
  const status = entry.status;
  let answer: Answer<T>;
  try {
    answer = { ok: true, value: await call() };
  } catch (error) {
    answer = { ok: false, error };
  }
  return entry.attempt === attempt && entry.status === status ? answer : null;
}

/**
 * Start an approved request, or a deliberate retry: fire the decision event and run it.
 * A deliberate retry gets a new confirmation: the old id is never reused (docs/protocol.md, "Rooms").
 */
export function startRun(host: RunHost, entry: Entry, event: 'confirm' | 'invoke' = decisionEvent(entry)): boolean {
  if (drifted(host, entry)) return false;
  if (!host.fire(entry, event)) return false;
  host.recordApproved(entry);
  host.publish();
  void (event === 'confirm' ? confirmThenInvoke(host, entry) : invoke(host, entry, null));
  return true;
}

/**
 * Every approval is bound to the tool name as well as the arguments (docs/guarantees.md, "Bound to
 * the tool and the arguments"): at the moment a request is approved, whoever approves it (a person,
 * a list, a grant), the call as its source holds it is read again. When it names another tool than
 * the one shown, the request ends `refused` (`approval-mismatch`), nothing is confirmed, invoked or
 * answered, and the application is told. A retry after an outcome is not a first approval: the
 * request was already bound when it was approved.
 */
function drifted(host: RunHost, entry: Entry): boolean {
  if (entry.currentCall === undefined || (entry.status !== 'idle' && entry.status !== 'reviewing')) return false;
  let held: HeldCall | undefined;
  try {
    held = entry.currentCall();
  } catch (error) {
    // What the call is now cannot be read: nothing proves it is still the one shown.
    held = { toolName: undefined };
    host.report(error, 'currentCall');
  }
  if (held === undefined || changedSinceShown({ toolName: entry.toolName, arguments: entry.snapshot }, { toolName: held.toolName }) === undefined) return false;
  const reason = toolMismatchReason(entry.input.callId, entry.toolName, held.toolName);
  if (!host.finish(entry, { status: 'refused', reason, code: APPROVAL_MISMATCH })) return false;
  host.tell(reason, { requestId: entry.id, callId: entry.input.callId, shown: entry.toolName, now: held.toolName }, APPROVAL_MISMATCH);
  return true;
}

async function confirmThenInvoke(host: RunHost, entry: Entry): Promise<void> {
  const room = entry.room as ToolRoom;
  // Pass that same snapshot to confirmTool and then, with the returned id, to invokeTool
  // (docs/protocol.md, "Confirmation").
  const answer = await ask(entry, () => room.confirmTool(entry.toolName, entry.snapshot));
  if (answer === null) return;
  if (!answer.ok) {
    // Permission errors from confirmTool end in a clear message and no invoke (docs/protocol.md, "Rooms"). Any
    // rejection does, a lost answer too: without a confirmation id there is nothing to invoke
    // with, so nothing ran (the room's unused confirmation is never consumed).
    const reason = `"${entry.toolName}" was not confirmed by the room, so nothing ran: ${reasonOf(answer.error, 'no reason given')}`;
    host.finish(entry, { status: 'refused', reason });
    return;
  }
  const confirmationId: unknown = answer.value;
  if (typeof confirmationId !== 'string' || confirmationId === '') {
    host.finish(entry, { status: 'refused', reason: `The room gave no confirmation id for "${entry.toolName}"` });
    return;
  }
  entry.confirmationId = confirmationId;
  host.fire(entry, 'confirmed');
  host.publish();
  await invoke(host, entry, confirmationId);
}

async function invoke(host: RunHost, entry: Entry, confirmationId: string | null): Promise<void> {
  const answer = await ask(entry, () => callTool(entry, confirmationId));
  if (answer === null) return;
  if (answer.ok) {
    // The result shown is invokeTool's own response, never a trace (docs/protocol.md, "Rooms").
    host.finish(entry, { status: 'done', output: answer.value, fingerprint: (entry.fingerprint as Fingerprint).hex, confirmationId });
    return;
  }
  const reason = reasonOf(answer.error, 'the call failed');
  if (classifyRoomError(answer.error) === 'unknown' && entry.descriptor.effect === 'write') {
    // Only an unknown outcome of a write is uncertain: no automatic retry (docs/protocol.md, "Rooms").
    const uncertain = `No answer came back (${reason}): the call may or may not have taken effect. Check before trying again.`;
    host.finish(entry, { status: 'uncertain', reason: uncertain });
    return;
  }
  // A definite failure is `failed`; so is an unknown outcome of a read, which may be retried plainly.
  entry.retryable = entry.descriptor.effect === 'read';
  host.finish(entry, { status: 'failed', reason });
}

/** The call itself: the room's `invokeTool`, or `onApprove` on the path without a room. */
function callTool(entry: Entry, confirmationId: string | null): unknown {
  if (entry.room) {
    // docs/protocol.md, "Rooms": pass the confirmation id with those same arguments; without one, call with two
    // arguments so the room sees no confirmation id at all.
    return confirmationId === null
      ? entry.room.invokeTool(entry.toolName, entry.snapshot)
      : entry.room.invokeTool(entry.toolName, entry.snapshot, confirmationId);
  }
  const onApprove = entry.onApprove as NonNullable<Entry['onApprove']>;
  const context: ApprovalContext = Object.freeze({
    requestId: entry.id,
    toolName: entry.toolName,
    fingerprint: entry.fingerprint as Fingerprint,
    definition: entry.definition,
    descriptor: entry.descriptor,
    attempt: entry.attempt,
    edited: entry.snapshot !== entry.original,
    original: entry.original,
    decidedBy: entry.decidedBy,
    automatic: entry.decidedBy?.by === 'rule',
    ...(entry.input.callId === undefined ? {} : { callId: entry.input.callId }),
    ...(entry.input.turnId === undefined ? {} : { turnId: entry.input.turnId }),
  });
  return onApprove(entry.snapshot, context);
}

/**
 * Run the application's check after an unknown outcome (docs/protocol.md, "Rooms": find out
 * whether the destination performed the operation before a deliberate retry of a write). A check that throws or
 * answers something else cannot tell: the request stays `uncertain`.
 */
export function startCheck(host: RunHost, entry: Entry): boolean {
  if (!permits(entry, 'check')) return false;
  const checkOutcome = entry.checkOutcome as CheckOutcome;
  const lost = entry.outcome;
  entry.outcome = null;
  host.fire(entry, 'check');
  host.publish();
  const context: OutcomeCheckContext = Object.freeze({
    requestId: entry.id,
    toolName: entry.toolName,
    arguments: entry.snapshot,
    fingerprint: (entry.fingerprint as Fingerprint).hex,
    confirmationId: entry.confirmationId,
    descriptor: entry.descriptor,
    reason: lost !== null && 'reason' in lost ? (lost.reason ?? '') : '',
    ...(entry.input.callId === undefined ? {} : { callId: entry.input.callId }),
  });
  void ask(entry, () => checkOutcome(context)).then((answer) => {
    if (answer === null) return;
    if (!answer.ok) host.report(answer.error, 'checkOutcome');
    entry.checked = true;
    host.finish(entry, outcomeOfCheck(entry, answer.ok ? answer.value : { status: 'unknown', reason: reasonOf(answer.error) }));
  });
  return true;
}

function outcomeOfCheck(entry: Entry, result: OutcomeCheckResult): ConfirmationOutcome {
  const found = typeof result === 'object' && result !== null ? result : undefined;
  const detail = found !== undefined && 'reason' in found && typeof found.reason === 'string' ? found.reason : undefined;
  if (found?.status === 'done') {
    return { status: 'done', output: found.output, fingerprint: (entry.fingerprint as Fingerprint).hex, confirmationId: entry.confirmationId };
  }
  if (found?.status === 'not-done') {
    // Known not to have happened: a deliberate retry (with a new confirmation) is safe.
    entry.retryable = true;
    return { status: 'failed', reason: detail ?? 'The check found that the call did not take effect. It can be tried again with a new confirmation.' };
  }
  return { status: 'uncertain', reason: `The check could not tell whether the call took effect${detail === undefined ? '' : `: ${detail}`}.` };
}
