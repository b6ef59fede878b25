/**
 * The confirmation controller: a queue of pending requests shown one at a time, each run through
 * the transition table of `confirmation-machine.ts`. It is an external store made by the kit's
 * one store core (`subscribe/getState/getInitialState`), so the React hook is a thin
 * `useSyncExternalStore` over it, and spoken confirmations, cards and dialogs can all drive the
 * same request (docs/architecture.md, "Conventions").
 *
 * Every status change goes through `fire` (the table), every outcome through `finish` (the one
 * event that leads to it, then the callbacks, then the caller's promise).
 */

import { confirmationStatusSets } from './confirmation-machine';
import { createFlow } from './confirmation-flow';
import { createConfirmationShell, type ConfirmationShell } from './confirmation-shell';
import { actionsOf, admitRequest, decisionEvent, permits, reviewAlone } from './confirmation-request';
import { startCheck, startRun } from './confirmation-runs';
import type { ConfirmationOutcome, ConfirmationRequest } from './confirmation-types';
import type {
  ApproveAllResult,
  BatchRefusal,
  ConfirmationController,
  ConfirmationControllerOptions,
  ConfirmationPick,
} from './confirmation-controller-types';
import type { AllowGrantRefusal } from './tool-grants';
import { APPROVAL_MISMATCH, toolMismatchReason } from './approval-binding';
import { snapshotJson } from '../json/json-value';

/**
 * Create the confirmation controller: a queue of pending requests shown one at a time, and the
 * room flow for each: snapshot the arguments, review, `confirmTool`, then one `invokeTool`.
 *
 * - Arguments are snapshotted and deep-frozen when the request is taken in (before review);
 *   arguments that are not JSON are refused at once, never shown. The same snapshot is shown,
 *   fingerprinted, confirmed and invoked.
 * - `approve()` is idempotent: one approval gives at most one `confirmTool` and one `invokeTool`.
 * - `deny()` calls nothing in the room; `approve()` and `deny()` work from anywhere (voice, cards).
 * - A rejected `confirmTool` ends `refused`; a definite invoke error `failed`; an unknown one
 *   `uncertain` for a write (never retried by itself) and `failed` for a read.
 * - `done` and `denied` leave at once and the next request is shown; `refused`, `failed` and
 *   `uncertain` stay shown until `dismiss()`, so their message is read.
 * - A listener, `onResult`, `onDeny` or `checkOutcome` that throws is reported through `onError`
 *   (or `console.error`) and never stops the flow.
 * - An editable request can be edited before it is approved: the edit is checked (JSON, the
 *   schema, the request's validator), becomes the snapshot with a fingerprint of its own, and is
 *   what runs; an invalid edit keeps the editor open and approves nothing.
 * - Standing grants (`controller.grants`) answer the requests of their tool, queued and later,
 *   each bound to its own snapshot and fingerprint; an allow grant never answers a high-risk tool,
 *   one whose risk is not declared, or one confirmed every time. Revoking stops it at once.
 * - `approveAll` and `denyAll` decide exactly the requests given, never one that came later;
 *   `approveAll` refuses, with a reason, a request that must be reviewed alone (high risk, risk not
 *   declared, confirmed every time): `show` brings it to the dialog, with its second step.
 * - A request with `expiresAt` ends `expired` at that time unless decided first; a decision after
 *   it changes nothing.
 * - A policy (`options.policy`, made by `createApprovalPolicy` in `toolgate/policy`) answers each
 *   request before a person sees it: a `deny` rule denies it, an `allow` rule approves it (never a
 *   high-risk, undeclared-risk or confirm-every-time tool), an `ask` rule leaves it to a person; in
 *   shadow mode it only tells `onDecision`. Each automatic answer names its rule (`decidedBy`), and
 *   a `once` rule is used up by the one request it answers. `allowByRule` keeps a scoped grant.
 * - Decisions are typed (docs/protocol.md "Decisions"): besides approve and deny, `respond(output)`
 *   answers in the tool's place (the output is the call's result, nothing runs) and `cancel()`
 *   withdraws the request (not a rejection).
 *
 * @example
 * const confirmations = createConfirmationController({ room });
 * const outcome = confirmations.request({ toolName: 'transfer', arguments: { to: 'bob', amount: 5 }, descriptor });
 * // in the dialog, or from a spoken "yes":
 * confirmations.approve({ requestId: confirmations.getState().current?.id });
 * await outcome; // { status: 'done', output, fingerprint, confirmationId }
 */
export function createConfirmationController(options: ConfirmationControllerOptions = {}): ConfirmationController {
  return runConfirmationController(options, createConfirmationShell(options));
}

/**
 * The controller over a shell made beforehand (./confirmation-shell): the client makes the shell
 * at once and this, by `import()`, on the first request (./deferred-confirmation-controller).
 */
export function runConfirmationController(options: ConfirmationControllerOptions, shell: ConfirmationShell): ConfirmationController {
  const flow = createFlow(options, shell);
  const { queue, store, grants } = flow;
  let counter = 0;
  /** The entry, after ending it `expired` if its time has come: a decision after that changes nothing. */
  const due = <E extends Parameters<typeof flow.expireIfDue>[0] | null | undefined>(entry: E): E => {
    if (entry) flow.expireIfDue(entry);
    return entry;
  };

  const request = (input: ConfirmationRequest): Promise<ConfirmationOutcome> => {
    const { entry, promise, refusal } = admitRequest(input, options.room, options.checkOutcome, `confirmation-${++counter}`);
    const signal = input.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    flow.recordRequested(entry);
    if (refusal !== undefined) {
      flow.finish(entry, { status: 'refused', reason: refusal });
      return promise;
    }
    flow.admit(entry, signal);
    // It may have expired already, on arrival: then there is nothing to fingerprint.
    if (entry.status === 'idle') flow.fingerprint(entry);
    return promise;
  };

  /** Decide exactly the picked requests that still wait (with the fingerprint shown, for an approval). */
  const decideAll = (picks: readonly ConfirmationPick[], decide: (entry: NonNullable<ReturnType<typeof queue.get>>, size: number) => boolean): readonly string[] => {
    const ids: string[] = [];
    const list = Array.isArray(picks) ? picks : [];
    for (const pick of list) {
      const entry = due(typeof pick?.requestId === 'string' ? queue.get(pick.requestId) : undefined);
      if (entry === undefined || ids.includes(entry.id)) continue;
      if (decide(entry, list.length)) ids.push(entry.id);
    }
    return Object.freeze(ids);
  };

  return {
    request,
    approve(target) {
      const entry = due(queue.shown(target));
      // Idempotent by the table: the first approval leaves `reviewing` synchronously, before any
      // await. A second click, a key repeat or a spoken "yes" at the same moment finds
      // `confirming`, where approving is not allowed, and changes nothing.
      if (entry === null || !actionsOf(entry).approve) return false;
      entry.decidedBy = PERSON;
      return startRun(flow, entry);
    },
    deny(reason, target) {
      const entry = due(queue.any(target));
      if (entry === null || !actionsOf(entry).deny) return false;
      entry.decidedBy = PERSON;
      // `onClick={deny}` would pass an event as the reason: keep only strings.
      return flow.finish(entry, typeof reason === 'string' ? { status: 'denied', reason } : { status: 'denied' });
    },
    respond(output, target) {
      const entry = due(queue.shown(target));
      if (entry === null || !actionsOf(entry).respond) return false;
      // What a person answers is the call's result: JSON only, copied and frozen like arguments.
      const answer = snapshotJson(output, 'output');
      if (!answer.ok) return false;
      entry.decidedBy = PERSON;
      return flow.finish(entry, { status: 'responded', output: answer.value });
    },
    cancel(reason, target) {
      const entry = due(queue.any(target));
      if (entry === null || !actionsOf(entry).cancel) return false;
      entry.decidedBy = PERSON;
      return flow.finish(entry, typeof reason === 'string' ? { status: 'cancelled', reason } : { status: 'cancelled' });
    },
    check: (target) => {
      const entry = queue.shown(target);
      return entry !== null && startCheck(flow, entry);
    },
    retry(target) {
      const entry = queue.shown(target);
      if (entry === null || !actionsOf(entry).retry) return false;
      const event = decisionEvent(entry);
      // A deliberate retry gets a new confirmation: the old id is never reused (docs/protocol.md, "Rooms").
      entry.attempt += 1;
      entry.confirmationId = null;
      entry.outcome = null;
      entry.checked = false;
      entry.retryable = false;
      return startRun(flow, entry, event);
    },
    dismiss: (target) => {
      const entry = queue.shown(target);
      return entry !== null && flow.dismiss(entry);
    },
    withdrawAll(reason) {
      const error = new DOMException(reason ?? 'The confirmation request was withdrawn', 'AbortError');
      return queue.all().filter((entry) => flow.withdraw(entry, error)).length;
    },
    edit: (target) => {
      const entry = due(queue.shown(target));
      return entry !== null && flow.step(entry, 'edit');
    },
    cancelEdit: (target) => {
      const entry = queue.shown(target);
      return entry !== null && flow.step(entry, 'keep');
    },
    submitEdit: (draft, target) => flow.submitEdit(due(queue.shown(target)), draft),
    allowForSession(target) {
      const entry = due(queue.shown(target));
      if (entry === null || !actionsOf(entry).allowForSession) return false;
      // The person's own approval of the request they see first; then the grant answers the others.
      entry.decidedBy = PERSON;
      if (!startRun(flow, entry)) return false;
      grants.allow(entry.toolName, entry.definition ?? undefined);
      return true;
    },
    denyForSession(reason, target) {
      const entry = due(queue.any(target));
      if (entry === null || !actionsOf(entry).denyForSession) return false;
      entry.decidedBy = PERSON;
      const denied = flow.finish(entry, typeof reason === 'string' ? { status: 'denied', reason } : { status: 'denied' });
      if (denied) grants.deny(entry.toolName, entry.definition ?? undefined);
      return denied;
    },
    allowByRule(rule, target) {
      const entry = due(queue.shown(target));
      if (entry === null || !actionsOf(entry).allowForSession) return false;
      const checked = flow.checkScopedRule(entry, rule);
      if (!checked.ok) {
        flow.tell(`the scoped grant was not kept: ${checked.reason}`, rule, 'policy-rule-refused');
        return false;
      }
      // The person's own approval of the request they see; then the kept rule answers the others.
      entry.decidedBy = PERSON;
      if (!startRun(flow, entry)) return false;
      grants.keepRule(checked.rule);
      return true;
    },
    previewRule: (rule) => flow.previewRule(rule),
    get policy() {
      return flow.policy;
    },
    show(target) {
      const entry = due(queue.any(target));
      return entry !== null && flow.bringForward(entry);
    },
    approveAll(picks) {
      const refused: BatchRefusal[] = [];
      const refuse = (requestId: string, reason: string, alone?: AllowGrantRefusal): false => {
        refused.push(Object.freeze({ requestId, reason, ...(alone === undefined ? {} : { reviewAlone: alone }) }));
        return false;
      };
      const approved = decideAll(picks, (entry, size) => {
        const pick = picks.find((p) => p.requestId === entry.id);
        // A batch never replaces a person's single review (docs/guarantees.md, "Several at once").
        const alone = reviewAlone(entry.descriptor);
        if (alone !== undefined) return refuse(entry.id, `${entry.toolName} must be reviewed alone: ${ALONE_REASONS[alone]}`, alone);
        // Bound to the tool the list showed, then to its arguments: a request whose fingerprint changed (an edit) is not approved.
        if (pick !== undefined && pick.toolName !== undefined && pick.toolName !== entry.toolName) {
          const reason = toolMismatchReason(entry.input.callId, pick.toolName, entry.toolName);
          flow.tell(reason, { requestId: entry.id, shown: pick.toolName, now: entry.toolName }, APPROVAL_MISMATCH);
          return refuse(entry.id, reason);
        }
        if (entry.fingerprint === null || entry.fingerprint.hex !== pick?.fingerprint) return refuse(entry.id, 'its arguments changed since the list showed them');
        const started =
          entry.status === 'reviewing'
            ? actionsOf(entry).approve && ((entry.decidedBy = Object.freeze({ by: 'batch', size })), startRun(flow, entry))
            : entry.status === 'idle' && flow.decideUnseen(entry, Object.freeze({ by: 'batch', size }));
        if (started) return true;
        // Its call names another tool now than the one the list showed: the refusal says so.
        const ended = entry.outcome;
        return refuse(entry.id, ended?.status === 'refused' && ended.code === APPROVAL_MISMATCH ? ended.reason : 'it is no longer waiting for a decision');
      });
      // `refused` rides on the array of ids, not enumerable, so the answer still reads as that array.
      return Object.freeze(Object.defineProperty([...approved], 'refused', { value: Object.freeze(refused), enumerable: false })) as unknown as ApproveAllResult;
    },
    denyAll: (picks, reason) =>
      decideAll(picks, (entry, size) => {
        if (!actionsOf(entry).deny || !confirmationStatusSets().awaitingDecision.has(entry.status)) return false;
        entry.decidedBy = Object.freeze({ by: 'batch', size });
        return flow.finish(entry, typeof reason === 'string' ? { status: 'denied', reason } : { status: 'denied' });
      }),
    grants,
    records: flow.records.store,
    noteAnswer: (callId, note) => flow.recordNote(callId, note),
    subscribe: store.subscribe,
    getState: store.getState,
    getInitialState: store.getInitialState,
  };
}

const PERSON = Object.freeze({ by: 'person' as const });

/** Why a request must be reviewed alone, in words a refusal carries. */
const ALONE_REASONS: Readonly<Record<AllowGrantRefusal, string>> = Object.freeze({
  'high-risk': 'a high-risk tool is approved only in its own review, with its second step',
  'risk-not-declared': 'a tool that does not declare its risk is approved only in its own review',
  'every-time': 'this tool is confirmed every time, one request at a time',
});
