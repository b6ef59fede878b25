/**
 * The controller's core: its store, its queue, and the only functions that change a request. Every
 * status change goes through `fire` (the table), every outcome through `finish` (the one event
 * that leads to it, then the callbacks, then the caller's promise). Standing grants, expiries and
 * edits act here too, each through the same two functions. Internal to the flow.
 */

import { confirmationStatusSets, nextConfirmationStatus, type ConfirmationEvent } from './confirmation-machine';
import { checkDraft } from './confirmation-edit';
import { createQueue, type Queue } from './confirmation-queue';
import { actionsOf, decisionEvent, outcomeEvent, permits, refresh, type Entry } from './confirmation-request';
import { startRun, type RunHost } from './confirmation-runs';
import type { ConfirmationOutcome, ConfirmationState, ConfirmationView } from './confirmation-types';
import type {
  ApprovalPolicy,
  ConfirmationClock,
  ConfirmationControllerOptions,
  EditResult,
  ApprovalNote,
} from './confirmation-controller-types';
import { reportListenerError, type ExternalStore } from '../external-store';
import { createConfirmationShell, EMPTY_QUEUE, type ConfirmationShell } from './confirmation-shell';
import { fingerprintCanonical, type Fingerprint, type FingerprintOptions } from '../json/fingerprint';
import { reasonOf } from '../session/room';
import { allowGrantRefusal, type ToolGrants } from './tool-grants';
import { isRuleShaped } from './policy-rule-shape';
import { evaluateRules } from '../policy/evaluate-rules';
import type { PolicyRequest, PolicyResult, PolicyRule } from '../policy/policy-types';
import { changedDefinitionParts, definitionKey, fingerprintToolDefinition, type DefinitionFingerprint } from './tool-definition';
import { decisionOfOutcome, endedMark } from './approval-record-outcomes';
import { selectApprovalRecord, type ApprovalRecordsWriter } from './approval-records';

/** What no rule says: a person decides (the evaluation is skipped when there are no rules at all). */
const NO_RULE: PolicyResult = Object.freeze({ decision: 'ask', why: 'no rule matches: a person decides' });

export { INITIAL_STATE } from './confirmation-shell';

/** The controller's core, as the controller's methods use it. */
export interface Flow extends RunHost {
  readonly store: ExternalStore<ConfirmationState>;
  readonly queue: Queue;
  readonly grants: ToolGrants;
  /** The approval records, one per call; the flow is their only writer (docs/architecture.md, "The approval record"). */
  readonly records: ApprovalRecordsWriter;
  /** Record that the entry's call waits for an approval (a request with a `callId`). */
  recordRequested(entry: Entry): void;
  /** `ConfirmationController.noteAnswer`: what became of an answer after it left the queue. */
  recordNote(callId: unknown, note: unknown): boolean;
  /** Take in a request that passed its checks: it waits for its fingerprint (and its turn). */
  admit(entry: Entry, signal: AbortSignal | undefined): void;
  /** Fingerprint the entry's current snapshot; refused when that cannot be done. */
  fingerprint(entry: Entry): void;
  withdraw(entry: Entry, reason: unknown): boolean;
  dismiss(entry: Entry): boolean;
  /** Apply an event that only moves the request on (an edit's steps) and publish. */
  step(entry: Entry, event: ConfirmationEvent): boolean;
  /** Check a draft of the entry's arguments and, valid, make it the snapshot. */
  submitEdit(entry: Entry | null, draft: unknown): Promise<EditResult>;
  /** Start an approval decided by someone other than a person looking at it (a grant, a list). */
  decideUnseen(entry: Entry, decider: NonNullable<Entry['decidedBy']>): boolean;
  /** End the entry `expired` when its time has come by the clock, even if its timer has not fired yet; returns whether it did. */
  expireIfDue(entry: Entry): boolean;
  /** Bring a waiting request to the dialog (see `ConfirmationController.show`); returns whether it is the one shown now. */
  bringForward(entry: Entry): boolean;
  readonly policy: ApprovalPolicy | undefined;
  /** The waiting requests `rule` would answer now, were it kept (see `ConfirmationController.previewRule`). */
  previewRule(rule: PolicyRule): readonly ConfirmationView[];
  /** `rule`, checked by the policy for the entry's tool, when it is an allow that would answer the entry itself; else why not. */
  checkScopedRule(entry: Entry, rule: PolicyRule): { ok: true; rule: PolicyRule } | { ok: false; reason: string };
}

const NOT_EDITING: EditResult = Object.freeze({ ok: false, issues: Object.freeze([Object.freeze({ path: Object.freeze([]), message: 'The arguments are not being edited' })]) });
const ENDED_WHILE_CHECKED: EditResult = Object.freeze({
  ok: false,
  issues: Object.freeze([Object.freeze({ path: Object.freeze([]), message: 'The request ended while its edit was checked' })]),
});

/** How many tool definitions' fingerprints a controller keeps at hand. */
const KNOWN_DEFINITIONS = 64;

/** The longest delay timers keep (2^31 - 1 ms); a later expiry is waited for in steps. */
const LONGEST_TIMER = 2_147_483_647;

export function createFlow(options: ConfirmationControllerOptions, shell: ConfirmationShell = createConfirmationShell(options)): Flow {
  const { store, grants, clock, records } = shell;
  const queue = createQueue();
  const fingerprintOptions: FingerprintOptions = 'crypto' in options ? { crypto: options.crypto } : {};
  let last: ConfirmationState['last'] = null;
  const policy = options.policy;
  /** The app's `once` rules that have answered a request: used up (kept ones are dropped from the grants instead). */
  const usedOnce = new Set<string>();
  /** Definition fingerprints by the definition's canonical text, the latest {@link KNOWN_DEFINITIONS}. */
  const definitions = new Map<string, Promise<DefinitionFingerprint | null>>();

  const report = (error: unknown, what: string): void => reportListenerError(error, options.onError, what);
  const tell = (reason: string, detail: unknown, code: string): void => {
    try {
      if (options.onError) options.onError(reason, detail, code);
      else console.error(`toolgate: ${reason}`);
    } catch {
      // The reporter threw: nothing safer is left to tell, and the flow goes on.
    }
  };
  const safely = (what: string, call: () => void): void => {
    try {
      call();
    } catch (error) {
      report(error, what);
    }
  };

  const publish = (): void => {
    const shown = queue.current();
    const waiting = queue.waiting();
    store.setState(
      Object.freeze({
        status: shown ? shown.status : 'idle',
        current: shown ? shown.view : null,
        queue: waiting.length === 0 ? EMPTY_QUEUE : Object.freeze(waiting.map((entry) => entry.view)),
        waiting: waiting.length,
        last,
      }),
      true,
    );
  };

  /** Show the next request when none is shown (docs/protocol.md, "Confirmation": the dialog shows one at a time). */
  const advance = (): void => {
    const next = queue.advance();
    if (next !== null && permits(next, 'review')) fire(next, 'review');
  };

  const leave = (entry: Entry): void => {
    queue.remove(entry);
    entry.detachSignal();
    entry.stopExpiry();
    advance();
  };

  const finish = (entry: Entry, outcome: ConfirmationOutcome): boolean => {
    if (!fire(entry, outcomeEvent(outcome.status))) return false;
    entry.outcome = Object.freeze(outcome);
    refresh(entry);
    recordEnded(entry, entry.outcome);
    last = Object.freeze({ requestId: entry.id, toolName: entry.toolName, outcome: entry.outcome });
    // Held on screen until dismissed, so that a person reads it (docs/protocol.md, "Rooms": errors end in a clear message).
    const held = actionsOf(entry).dismiss;
    if (!held) leave(entry);
    publish();
    const view = entry.view;
    const { onDeny, onResult } = entry.input;
    if (outcome.status === 'denied' && onDeny) safely('onDeny', () => onDeny(outcome.reason, view));
    if (onResult) safely('onResult', () => onResult(entry.outcome as ConfirmationOutcome, view));
    const always = options.onResult;
    if (always) safely('onResult', () => always(entry.outcome as ConfirmationOutcome, view));
    if (!held) entry.resolve(entry.outcome);
    return true;
  };

  const withdraw = (entry: Entry, reason: unknown): boolean => {
    // After approval nothing cancels an invoke in flight: `confirming` and later states have no `withdraw`.
    if (!fire(entry, 'withdraw')) return false;
    leave(entry);
    publish();
    entry.reject(reason);
    return true;
  };

  /** docs/protocol.md, "Expiry": a request with `expiresAt` ends `expired` at that time, unless it was decided first. */
  const armExpiry = (entry: Entry): void => {
    const expiresAt = entry.expiresAt;
    if (expiresAt === null) return;
    let handle: unknown;
    let armed = true;
    const check = (): void => {
      if (!armed) return;
      const left = expiresAt - clock.now();
      if (left > 0) {
        handle = clock.setTimeout(check, Math.min(left, LONGEST_TIMER));
        return;
      }
      armed = false;
      finish(entry, { status: 'expired' });
    };
    entry.stopExpiry = () => {
      if (!armed) return;
      armed = false;
      if (handle !== undefined) clock.clearTimeout(handle);
    };
    check();
  };

  /** A request a rule may answer: fingerprinted, not edited (a person is deciding it), not yet decided. */
  const answerable = (entry: Entry): boolean =>
    !entry.direct && entry.fingerprint !== null && entry.snapshot === entry.original && (entry.status === 'idle' || entry.status === 'reviewing');

  /** The rules a person gave: standing grants and scoped grants, kept in the grants store; a used-up `once` rule is gone. */
  const keptRules = (): PolicyRule[] => grants.getState().rules.filter((rule) => !usedOnce.has(rule.id));

  /** The rules in force: the app's, then the ones a person gave; a used-up `once` rule is gone. */
  const rulesInForce = (): PolicyRule[] => [...(policy?.rules ?? []).filter((rule) => !usedOnce.has(rule.id)), ...keptRules()];

  /**
   * The rules that answer requests: all of them, except in shadow mode, where the app's rules only
   * report what they would do and the rules a person gave answer alone (a person's own grant is
   * no trial).
   */
  const rulesThatAnswer = (): PolicyRule[] => (policy?.mode === 'shadow' ? keptRules() : rulesInForce());

  const policyRequestOf = (entry: Entry): PolicyRequest => ({
    toolName: entry.toolName,
    arguments: entry.snapshot,
    descriptor: entry.descriptor,
    ...(entry.input.turnId === undefined ? {} : { turnId: entry.input.turnId }),
    ...(entry.definition === null ? {} : { definitionFingerprint: entry.definition.hex }),
    now: clock.now(),
  });

  /**
   * The rules' result for the entry, or `undefined` when the evaluation threw (reported: a person
   * decides). The policy's own function reads them where there is a policy; without one, the rules
   * a person gave are read without the shell parser (evaluate-rules.ts).
   */
  const evaluate = (entry: Entry, rules: readonly PolicyRule[], mode: 'enforce' | 'shadow'): PolicyResult | undefined => {
    if (policy === undefined && rules.length === 0) return NO_RULE;
    try {
      return (policy?.evaluate ?? evaluateRules)({ rules, mode }, policyRequestOf(entry));
    } catch (error) {
      tell(`the policy could not decide ${entry.toolName}: ${reasonOf(error)}; a person decides`, error, 'policy-threw');
      return undefined;
    }
  };

  const reportDecision = (entry: Entry, result: PolicyResult, acted: boolean): void => {
    const onDecision = policy?.onDecision;
    if (onDecision === undefined) return;
    const report = Object.freeze({ request: entry.view, result, mode: policy?.mode ?? 'enforce', acted });
    safely('onDecision', () => onDecision(report));
  };

  /**
   * The standing grant of the entry's tool that did not answer it because the tool's definition
   * changed since it was given: the dialog names what changed (docs/guarantees.md, "Standing grants
   * are bound to the tool's definition"). Cleared once that grant is revoked or the entry is answered.
   */
  const noteDefinitionChange = (entry: Entry): void => {
    const grant = grants.find(entry.toolName);
    const changed = grant?.definition === undefined ? [] : changedDefinitionParts(grant.definition, entry.definition);
    const before = entry.definitionChanged;
    if (grant === undefined || changed.length === 0) {
      if (before === null) return;
      entry.definitionChanged = null;
    } else {
      if (before !== null && before.grant.id === grant.id && before.grant.decision === grant.decision && before.parts.join() === changed.join()) return;
      entry.definitionChanged = Object.freeze({ grant, parts: changed });
    }
    refresh(entry);
    publish();
  };

  /**
   * The rules answer the entry before a person sees it (docs/architecture.md, "Policies"): the
   * app's policy, the standing grants and the scoped grants, read together (a deny wins, then an
   * ask, then an allow). `answered` when a rule allowed or denied it; `asked` when a person decides
   * (no rule spoke, a rule asks, or the evaluation could not decide). Shadow mode reports what the
   * app's rules would do; only the rules a person gave answer then. An allow never answers a
   * request that takes no allow grant, whatever the evaluation function says. `first`: the first
   * evaluation of this request, the one reported to `onDecision`.
   */
  const answerByRules = (entry: Entry, first: boolean): 'answered' | 'asked' => {
    if (!answerable(entry)) return 'asked';
    const shadow = policy?.mode === 'shadow';
    if (shadow && first) {
      const trial = evaluate(entry, rulesInForce(), 'shadow');
      if (trial !== undefined) reportDecision(entry, trial.wouldDecide ?? trial, false);
    }
    const rules = rulesThatAnswer();
    const result = evaluate(entry, rules, 'enforce');
    const rule = result?.ruleId === undefined ? undefined : rules.find((r) => r.id === result.ruleId);
    if (result === undefined || result.decision === 'ask' || rule === undefined) {
      if (first && !shadow && result !== undefined) reportDecision(entry, result, false);
      noteDefinitionChange(entry);
      return 'asked';
    }
    if (result.decision === 'allow') {
      const refusal = allowGrantRefusal(entry.descriptor);
      if (refusal !== undefined) {
        tell(`rule ${rule.id} would allow ${entry.toolName}, which a person must decide (${refusal}): it is asked`, { ruleId: rule.id }, 'policy-refused');
        if (first && !shadow) reportDecision(entry, { decision: 'ask', why: `rule ${rule.id} may not allow ${entry.toolName} (${refusal}): a person decides` }, false);
        return 'asked';
      }
    }
    const decider = Object.freeze({
      by: 'rule' as const,
      ruleId: rule.id,
      decision: result.decision,
      origin: rule.origin,
      ...(rule.label === undefined ? {} : { label: rule.label }),
    });
    // Used up before it answers: an answer that sets off another evaluation must not find it again.
    const once = rule.scope.kind === 'once';
    if (once) usedOnce.add(rule.id);
    let answered: boolean;
    if (result.decision === 'deny') {
      const before = entry.decidedBy;
      entry.decidedBy = decider;
      // The model reads the reason: a standing grant's says what it is, as a person gave it.
      const reason = rule.origin === 'grant' && rule.scope.kind === 'session' ? `${entry.toolName} is denied for this session` : result.why;
      answered = finish(entry, { status: 'denied', reason });
      if (!answered) entry.decidedBy = before;
    } else {
      answered = flow.decideUnseen(entry, decider);
    }
    if (!answered) {
      if (once) usedOnce.delete(rule.id);
      return 'asked';
    }
    if (first && !shadow) reportDecision(entry, result, true);
    if (once) grants.dropRule(rule.id);
    return 'answered';
  };

  grants.subscribe(() => {
    // A new grant or kept rule answers the requests already waiting, in their order; a revoked
    // one answers nothing more from now on (requests it answered already have their answer).
    for (const entry of queue.all()) answerByRules(entry, false);
  });

  /** The record of the entry's call, once the request ended without running (done adds nothing). */
  const recordEnded = (entry: Entry, outcome: ConfirmationOutcome): void => {
    const callId = entry.input.callId;
    const mark = callId === undefined ? undefined : endedMark(outcome, entry);
    if (callId === undefined || mark === undefined) return;
    records.write({
      kind: 'ended',
      callId,
      requestId: entry.id,
      toolName: entry.toolName,
      mark,
      decision: decisionOfOutcome(outcome),
      decidedBy: entry.decidedBy,
      argumentsFingerprint: entry.fingerprint?.hex,
      definitionFingerprint: entry.definition?.hex,
    });
  };

  const flow: Flow = {
    store,
    queue,
    grants,
    records,
    recordRequested(entry) {
      const callId = entry.input.callId;
      if (callId !== undefined) records.write({ kind: 'requested', callId, requestId: entry.id, toolName: entry.toolName });
    },
    recordNote: shell.recordNote,
    recordApproved(entry) {
      const callId = entry.input.callId;
      if (callId === undefined) return;
      records.write({
        kind: 'approved',
        callId,
        requestId: entry.id,
        toolName: entry.toolName,
        approvedArguments: entry.snapshot,
        edited: entry.snapshot !== entry.original,
        decidedBy: entry.decidedBy,
        argumentsFingerprint: entry.fingerprint?.hex,
        definitionFingerprint: entry.definition?.hex,
      });
    },
    policy,
    previewRule(rule) {
      if (policy === undefined || !isRuleShaped(rule)) return EMPTY_QUEUE;
      const rules = [...rulesThatAnswer().filter((r) => r.id !== rule.id), rule];
      const answers = queue
        .waiting()
        .filter((entry) => answerable(entry) && !entry.shown)
        .filter((entry) => {
          const result = evaluate(entry, rules, 'enforce');
          if (result === undefined || result.ruleId !== rule.id) return false;
          return result.decision !== 'allow' || allowGrantRefusal(entry.descriptor) === undefined;
        });
      return Object.freeze(answers.map((entry) => entry.view));
    },
    checkScopedRule(entry, rule) {
      if (policy === undefined) return { ok: false, reason: 'no policy is given: scoped grants need one' };
      const describe = (name: string) => (name === entry.toolName ? entry.descriptor : undefined);
      let checked: { ok: true; rule: PolicyRule } | { ok: false; reason: string };
      try {
        checked = policy.check !== undefined ? policy.check(rule, { describe }) : isRuleShaped(rule) ? { ok: true, rule } : { ok: false, reason: 'not a policy rule' };
      } catch (error) {
        return { ok: false, reason: reasonOf(error) };
      }
      if (!checked.ok) return checked;
      if (checked.rule.decision !== 'allow') return { ok: false, reason: `rule ${checked.rule.id}: a scoped grant allows` };
      // A scoped grant made from a request answers that request too: one that would not is not what the person saw.
      const result = evaluate(entry, [checked.rule], 'enforce');
      if (result?.decision !== 'allow' || result.ruleId !== checked.rule.id) return { ok: false, reason: `rule ${checked.rule.id} would not answer the request it was made from` };
      return checked;
    },
    report,
    tell,
    publish,
    fire,
    finish,
    withdraw,
    admit(entry, signal) {
      queue.add(entry);
      if (signal) {
        // A withdrawal that comes when the expiry is already due (the server ended the call at
        // `expiresAt`, and its word arrived before this page's timer fired) must not hide the
        // expiry: the request ends `expired`, as it would have a moment later.
        const onAbort = (): void => void (flow.expireIfDue(entry) || withdraw(entry, signal.reason));
        signal.addEventListener('abort', onAbort, { once: true });
        entry.detachSignal = () => signal.removeEventListener('abort', onAbort);
      }
      advance();
      publish();
      armExpiry(entry);
    },
    fingerprint(entry) {
      const canonical = entry.canonical;
      Promise.all([fingerprintCanonical(canonical, fingerprintOptions), definitionOf(entry)]).then(
        ([fingerprint, definition]) => {
          entry.definition = definition;
          fingerprinted(entry, canonical, fingerprint);
        },
        // Refused unless it ended meanwhile (denied, withdrawn): the table decides.
        (error: unknown) => finish(entry, { status: 'refused', reason: reasonOf(error, 'the arguments could not be fingerprinted') }),
      );
    },
    dismiss(entry) {
      const outcome = entry.outcome;
      if (!actionsOf(entry).dismiss || outcome === null) return false;
      leave(entry);
      publish();
      entry.resolve(outcome);
      return true;
    },
    step(entry, event) {
      if (!permits(entry, event) || !fire(entry, event)) return false;
      publish();
      return true;
    },
    async submitEdit(entry, draft) {
      if (entry === null || entry.editing === null || !permits(entry, 'submit')) return NOT_EDITING;
      fire(entry, 'submit');
      publish();
      const checked = await checkDraft(draft, entry.editing);
      // Denied, withdrawn or expired while its check ran: the draft changes nothing.
      if (entry.status !== 'revising') return ENDED_WHILE_CHECKED;
      if (!checked.ok) {
        entry.issues = checked.issues;
        fire(entry, 'reject');
        publish();
        return Object.freeze({ ok: false, issues: checked.issues });
      }
      // Back to the proposed arguments: the very snapshot proposed, so the request reads unedited.
      const unchanged = checked.canonical === entry.originalCanonical;
      entry.snapshot = unchanged ? entry.original : checked.snapshot;
      entry.canonical = checked.canonical;
      entry.fingerprint = null;
      entry.issues = Object.freeze([]);
      fire(entry, 'revise');
      publish();
      flow.fingerprint(entry);
      return Object.freeze({ ok: true });
    },
    expireIfDue(entry) {
      // A timer fires at its time or later (a busy page, a throttled tab): a decision that comes in
      // between must not win over an expiry that is already due.
      if (entry.expiresAt === null || clock.now() < entry.expiresAt) return false;
      entry.stopExpiry();
      return finish(entry, { status: 'expired' });
    },
    bringForward(entry) {
      const shown = queue.current();
      if (entry === shown) return true;
      if (entry.direct || !confirmationStatusSets().awaitingDecision.has(entry.status) || !queue.waiting().includes(entry)) return false;
      // The one shown is in a person's hands (an editor open, a call in flight, an outcome to read):
      // it keeps the dialog, and the request asked for comes next.
      const free = shown === null || permits(shown, 'defer');
      if (shown !== null && free) {
        fire(shown, 'defer');
        // Back in line as a request nobody has seen: a grant or a list may answer it there.
        shown.shown = false;
        refresh(shown);
      }
      queue.promote(entry, free);
      if (free && permits(entry, 'review')) fire(entry, 'review');
      publish();
      return free;
    },
    decideUnseen(entry, decider) {
      const before = entry.decidedBy;
      entry.decidedBy = decider;
      const event = decisionEvent(entry);
      if (!permits(entry, event)) {
        entry.decidedBy = before;
        return false;
      }
      // Answered without being shown: it leaves the line, and its outcome is told, never held on screen.
      if (!entry.shown) {
        queue.unqueue(entry);
        advance();
      }
      return startRun(flow, entry, event);
    },
  };

  /**
   * The definition's fingerprint, taken once per request (an edit changes the arguments, never the
   * tool). A definition that cannot be fingerprinted is reported and counts as unknown: a grant
   * bound to a definition then does not answer it.
   */
  function definitionOf(entry: Entry): Promise<DefinitionFingerprint | null> {
    const definition = entry.input.definition;
    if (entry.definition !== null || definition === undefined) return Promise.resolve(entry.definition);
    let key: string;
    try {
      key = definitionKey(definition);
    } catch (error) {
      tell(`the definition of ${entry.toolName} could not be fingerprinted: ${reasonOf(error)}`, definition, 'invalid-definition');
      return Promise.resolve(null);
    }
    // A tool's requests mostly share one definition: it is hashed once, not once per request.
    let known = definitions.get(key);
    if (known === undefined) {
      known = fingerprintToolDefinition(definition, fingerprintOptions).catch((error: unknown) => {
        definitions.delete(key);
        tell(`the definition of ${entry.toolName} could not be fingerprinted: ${reasonOf(error)}`, definition, 'invalid-definition');
        return null;
      });
      if (definitions.size >= KNOWN_DEFINITIONS) definitions.delete(definitions.keys().next().value as string);
      definitions.set(key, known);
    }
    return known;
  }

  function fingerprinted(entry: Entry, canonical: string, fingerprint: Fingerprint): void {
    // Denied, withdrawn or expired meanwhile, or an edit replaced the text this was taken of.
    if (entry.status !== 'idle' || entry.canonical !== canonical) return;
    entry.fingerprint = fingerprint;
    refresh(entry);
    // A descriptor that needs no confirmation is invoked directly, without an id and without
    // the dialog (docs/protocol.md, "Rooms"): it never entered the queue.
    if (entry.direct) {
      startRun(flow, entry, 'invoke');
      return;
    }
    if (!entry.shown && answerByRules(entry, true) === 'answered') return;
    if (entry === queue.current()) fire(entry, 'review');
    publish();
  }

  return flow;
}

/**
 * Apply `event` through the table: the one place a request's status changes. `false`, and no
 * change, when the table does not allow it from the request's status; the guards the table
 * cannot express are asked first, through `permits` and the actions derived from it.
 */
function fire(entry: Entry, event: ConfirmationEvent): boolean {
  const next = nextConfirmationStatus(entry.status, event);
  if (next === undefined) return false;
  entry.status = next;
  if (next === 'reviewing') entry.shown = true;
  refresh(entry);
  return true;
}
