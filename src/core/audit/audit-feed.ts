/**
 * What feeds the audit log from a client: every request that a person (or a grant, a list, a
 * rule) decides goes through the client's approvals, so the feed sits there, around `request`.
 * docs/guarantees.md ("An audit trail that shows tampering") says what each record proves.
 *
 * - `requested`: when the request is taken in (the arguments shown, the tool's definition);
 * - `decided`: at the decision (approve, deny, respond, cancel), with who made it;
 * - `ran`: with the approval, the fingerprint of exactly what runs (an edit's own);
 * - `settled`: when the call ends in the tool-call store (or, on a room's path, with the room's
 *   own answer), with its result code and the fingerprint of the output the page was given.
 *
 * A request that needs no confirmation involves no decision and is not recorded. Expiry and a
 * withdrawal by the requester are not decisions either: the call has a `requested` record only.
 */

import { isTerminalStatus, type ToolCallStatus } from '../stream/call-lifecycle';
import { callOf } from '../stream/call-table';
import type {
  ConfirmationDecider,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationView,
} from '../approval/confirmation-types';
import type { ConfirmationController } from '../approval/confirmation-controller-types';
import { describeThrown } from '../external-store';
import type { JsonValue } from '../json/json-value';
import { needsConfirmation } from '../approval/tool-descriptor';
import { fingerprintToolDefinition } from '../approval/tool-definition';
import type { AuditDecider } from './audit-record';
import type { AuditFeed, AuditFeedOptions } from './audit-feed-key';

/** The entries the feed makes (an `AuditEntry` of the log each). */
type AuditEntry =
  | { type: 'requested'; callId: string; toolName: string; definitionFingerprint: string | null; arguments: JsonValue }
  | { type: 'decided'; callId: string; kind: 'approve' | 'deny' | 'respond' | 'cancel'; by: AuditDecider; ruleId: string | null; reason: string | null }
  | { type: 'ran'; callId: string; argumentsFingerprint: string }
  | { type: 'settled'; callId: string; code: string; outputFingerprint?: null; output?: JsonValue };

const DECIDERS: readonly string[] = ['person', 'rule', 'grant', 'batch'] satisfies readonly AuditDecider[];

/** Who decided, as a record says it, and the rule that did (a standing grant is a rule of origin `grant`, recorded as a grant). */
export function deciderOf(decider: ConfirmationDecider | null | undefined): { by: AuditDecider; ruleId: string | null } {
  if (decider === null || decider === undefined) return { by: 'person', ruleId: null };
  // Deciders added later (a policy's rule) are read by their shape, so the feed needs no change for them.
  const loose = decider as { by: string; ruleId?: unknown; origin?: unknown };
  const by = (loose.by === 'rule' && loose.origin === 'grant' ? 'grant' : DECIDERS.includes(loose.by) ? loose.by : 'person') as AuditDecider;
  return { by, ruleId: typeof loose.ruleId === 'string' ? loose.ruleId : null };
}

/** The result code a record gives a call that ended in the store. */
function codeOf(call: { status: ToolCallStatus; ok?: boolean | undefined; code?: string | undefined }): string {
  if (call.status === 'settled') return call.ok === false ? (call.code ?? 'FAILED') : 'OK';
  if (call.status === 'cancelled') return 'CANCELLED';
  return 'FAILED';
}

/**
 * Wrap `controller` so that each request it is given is recorded in `log`. The wrapper is the
 * controller in every other way (same state, same grants): views made for one are views of both.
 */
export function feedAuditLog(controller: ConfirmationController, append: (entry: AuditEntry) => Promise<unknown>, options: AuditFeedOptions = {}): AuditFeed {
  let counter = 0;
  // Records are made in the order things happened: each waits for the one before it (a
  // definition's fingerprint is computed before its `requested` record is appended).
  let chain: Promise<unknown> = Promise.resolve();
  const refused = (error: unknown): void => {
    try {
      options.onError?.(`the audit log refused a record: ${describeThrown(error)}`, error, 'audit-refused');
    } catch {
      // The reporter threw: nothing safer is left to tell.
    }
  };

  /** Per audited request: whether its `requested` record is in (later ones are skipped when it is not). */
  interface Audited {
    readonly id: string;
    recorded: boolean;
    decided: boolean;
    settled: boolean;
  }
  const enqueue = (audited: Audited, make: () => AuditEntry | undefined | Promise<AuditEntry | undefined>, first = false): void => {
    chain = chain.then(async () => {
      if (!first && !audited.recorded) return;
      let entry: AuditEntry | undefined;
      try {
        entry = await make();
        if (entry === undefined) return;
        await append(entry);
        if (first) audited.recorded = true;
      } catch (error) {
        refused(error);
      }
    });
  };

  // Calls whose decision is recorded, waiting for their end in the store.
  const watched = new Map<string, Audited>();
  let stopWatching: (() => void) | undefined;
  const sweep = (): void => {
    const calls = options.calls;
    if (calls === undefined) return;
    for (const [callId, audited] of watched) {
      const call = callOf(calls.getState(), callId);
      if (call === undefined || !isTerminalStatus(call.status)) continue;
      watched.delete(callId);
      settle(audited, codeOf(call), call.output);
    }
    if (watched.size === 0 && stopWatching !== undefined) {
      stopWatching();
      stopWatching = undefined;
    }
  };
  /**
   * Wait for the call's end in the store; a call the store does not show (a room's request, an
   * app's own) ends with the decision, as `fallback` says, when there is one.
   */
  const watch = (audited: Audited, fallback?: { code: string; output?: unknown }): void => {
    if (options.calls === undefined || callOf(options.calls.getState(), audited.id) === undefined) {
      if (fallback !== undefined) settle(audited, fallback.code, fallback.output);
      return;
    }
    watched.set(audited.id, audited);
    stopWatching ??= options.calls.subscribe(sweep);
    sweep();
  };
  const settle = (audited: Audited, code: string, output: unknown): void => {
    if (audited.settled) return;
    audited.settled = true;
    enqueue(audited, () => ({ type: 'settled', callId: audited.id, code, ...(output === undefined ? { outputFingerprint: null } : { output: output as JsonValue }) }));
  };
  const decide = (audited: Audited, kind: 'approve' | 'deny' | 'respond' | 'cancel', decider: ConfirmationDecider | null, reason?: string): void => {
    if (audited.decided) return;
    audited.decided = true;
    const { by, ruleId } = deciderOf(decider);
    enqueue(audited, () => ({ type: 'decided', callId: audited.id, kind, by, ruleId, reason: reason ?? null }));
  };

  const request = (given: ConfirmationRequest): Promise<ConfirmationOutcome> => {
    // No decision is involved where nothing is asked (docs/protocol.md "Confirmation"): nothing to record.
    if (typeof given !== 'object' || given === null || !needsConfirmation(given.descriptor)) return controller.request(given);
    counter += 1;
    const audited: Audited = { id: typeof given.callId === 'string' && given.callId !== '' ? given.callId : `request-${counter}`, recorded: false, decided: false, settled: false };
    const shown = given.arguments;
    const definition = given.definition;
    enqueue(
      audited,
      async () => ({
        type: 'requested',
        callId: audited.id,
        toolName: given.toolName,
        definitionFingerprint: definition === undefined ? null : (await fingerprintToolDefinition(definition)).hex,
        arguments: shown as JsonValue,
      }),
      true,
    );
    const onResult = (outcome: ConfirmationOutcome, view: ConfirmationView): void => {
      switch (outcome.status) {
        case 'denied':
          decide(audited, 'deny', view.decidedBy, outcome.reason);
          watch(audited, { code: 'REJECTED' });
          break;
        case 'responded':
          decide(audited, 'respond', view.decidedBy);
          watch(audited, { code: 'OK', output: outcome.output });
          break;
        case 'cancelled':
          decide(audited, 'cancel', view.decidedBy, outcome.reason);
          watch(audited, { code: 'CANCELLED' });
          break;
        case 'done':
        case 'failed':
        case 'uncertain':
          // The room's path: the room's own answer is the call's end (on the other path `onApprove` recorded the run).
          if (given.onApprove !== undefined) break;
          if (outcome.status === 'failed' && view.confirmationId === null) break; // refused before anything was invoked
          decide(audited, 'approve', view.decidedBy);
          if (view.fingerprint !== null && !audited.settled) enqueueRan(audited, view.fingerprint.hex);
          if (outcome.status === 'done') settle(audited, 'OK', outcome.output);
          if (outcome.status === 'failed') settle(audited, 'FAILED', undefined);
          break;
        default:
          // expired, refused, withdrawn: no decision was made.
          break;
      }
      given.onResult?.(outcome, view);
    };
    let ranRecorded = false;
    const enqueueRan = (target: Audited, fingerprint: string): void => {
      if (ranRecorded) return;
      ranRecorded = true;
      enqueue(target, () => ({ type: 'ran', callId: target.id, argumentsFingerprint: fingerprint }));
    };
    const wrapped = { ...given, onResult } as ConfirmationRequest;
    if (given.onApprove !== undefined) {
      const onApprove = given.onApprove;
      (wrapped as { onApprove: typeof onApprove }).onApprove = (args, context) => {
        decide(audited, 'approve', context.decidedBy);
        enqueueRan(audited, context.fingerprint.hex);
        watch(audited);
        return onApprove(args, context);
      };
    }
    return controller.request(wrapped);
  };

  const approvals: ConfirmationController = new Proxy(controller, {
    get(target, key, receiver) {
      if (key === 'request') return request;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    approvals,
    stop: () => {
      stopWatching?.();
      stopWatching = undefined;
      watched.clear();
    },
  };
}
