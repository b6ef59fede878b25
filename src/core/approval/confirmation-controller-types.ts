/**
 * The confirmation controller's interface: its options (room, grants, policy, clock), the policy it
 * takes, and the methods a dialog, a hook or a bridge calls. The request, view and outcome shapes it
 * speaks in are in confirmation-types.ts.
 */

import type { ApprovalRecordStore } from './approval-records';
import type { ErrorReporter } from '../external-store';
import type { FingerprintOptions } from '../json/fingerprint';
import type { ToolRoom } from '../session/room';
import type { ToolDescriptor } from './tool-descriptor';
import type { AllowGrantRefusal, ToolGrants } from './tool-grants';
import type { Policy, PolicyRequest, PolicyResult, PolicyRule } from '../policy/policy-types';
import type {
  ArgumentsIssue,
  CheckOutcome,
  ConfirmationListener,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationState,
  ConfirmationTarget,
  ConfirmationView,
} from './confirmation-types';

/**
 * The function a policy is evaluated by: `evaluatePolicy` from `toolgate/policy` fits.
 *
 * @example
 * import { evaluatePolicy } from 'toolgate/policy';
 * const evaluate: PolicyEvaluator = evaluatePolicy;
 */
export type PolicyEvaluator = (policy: Policy, request: PolicyRequest) => PolicyResult;

/**
 * What the controller tells `onDecision` of each request it evaluates: the request as shown, what
 * the policy decided (in shadow mode: what it would have decided) and whether it acted on it.
 *
 * @example
 * const onDecision = ({ result, acted, request }: PolicyDecisionReport) => console.info(request.toolName, result.decision, acted);
 */
export interface PolicyDecisionReport {
  readonly request: ConfirmationView;
  /** In shadow mode, what the rules would have decided; otherwise what they decided. */
  readonly result: PolicyResult;
  readonly mode: 'enforce' | 'shadow';
  /** `true` when the request was answered by the rule; `false` when a person is asked (always so in shadow mode). */
  readonly acted: boolean;
}

/**
 * A policy as the confirmation controller takes it: the app's rules, the mode, the evaluation
 * function and the rule check (both from `toolgate/policy`), and who is told of each decision.
 * Rules a person makes in the dialog are kept with the standing grants, not here.
 *
 * @example
 * import { createApprovalPolicy } from 'toolgate/policy';
 * const policy: ApprovalPolicy = createApprovalPolicy({ rules: [readDocs], mode: 'shadow', onDecision: console.info });
 * const client = createToolgate({ policy });
 */
export interface ApprovalPolicy {
  /** The app's own rules, plain data. */
  readonly rules: readonly PolicyRule[];
  /** `enforce` (the default) answers by the rules; `shadow` only reports what they would do and still asks. */
  readonly mode?: 'enforce' | 'shadow';
  readonly evaluate: PolicyEvaluator;
  /** Checks a rule before it is kept (a scoped grant from the dialog, a rule read back after a reload). */
  readonly check?: (
    rule: unknown,
    context?: { describe?: (toolName: string) => Partial<ToolDescriptor> | null | undefined },
  ) => { ok: true; rule: Readonly<PolicyRule> } | { ok: false; reason: string };
  /** Told of every request the policy decided or would have decided. */
  readonly onDecision?: (report: PolicyDecisionReport) => void;
}

/**
 * Options of {@link createConfirmationController}.
 *
 * @example
 * createConfirmationController({ room, checkOutcome, onResult: (outcome) => log(outcome) });
 */
export interface ConfirmationControllerOptions {
  /** The room used by requests that give neither `room` nor `onApprove`. */
  room?: ToolRoom;
  /** The application's check, offered after an unknown outcome of a write. */
  checkOutcome?: CheckOutcome;
  /** Called each time any request reaches an outcome. */
  onResult?: (outcome: ConfirmationOutcome, request: ConfirmationView) => void;
  /** Where Web Crypto comes from (`globalThis.crypto` by default). */
  crypto?: FingerprintOptions['crypto'];
  /** The standing grants of the session (one of its own by default): read as `controller.grants`. */
  grants?: ToolGrants;
  /**
   * Policy rules that answer requests before a person sees them (`createApprovalPolicy` from
   * `toolgate/policy` makes one). Without it no rule answers anything and the dialog offers no
   * scoped grants. The evaluation function comes with the policy, so `toolgate/core` never loads
   * the shell parser that rules over commands need (docs/architecture.md, "Policies").
   */
  policy?: ApprovalPolicy;
  /** The clock of expiries: `now()` in ms since the epoch (`Date.now` and the global timers by default). */
  clock?: ConfirmationClock;
  /**
   * Told of what threw: a listener, `onResult`, `onDeny` or `checkOutcome` (code `listener-threw`),
   * as `(reason, thrown value, code)`. The flow goes on either way; without it, `console.error`.
   */
  onError?: ErrorReporter;
}

/**
 * The clock a controller ends expired requests by: the wall clock (`expiresAt` is in ms since the
 * epoch) and its timers. A manual clock from `toolgate/testing` fits.
 *
 * @example
 * const clock: ConfirmationClock = { now: Date.now, setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h as number) };
 */
export interface ConfirmationClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * A request as a list showed it: its id, its tool and the fingerprint shown beside it. "Approve all" and
 * "Deny all" decide exactly these, and only while each still has that fingerprint.
 *
 * @example
 * const shown: ConfirmationPick[] = views.map((view) => ({ requestId: view.id, fingerprint: view.fingerprint!.hex, toolName: view.toolName }));
 */
export interface ConfirmationPick {
  readonly requestId: string;
  readonly fingerprint: string;
  /** The tool name the list showed: a request of another tool is refused (`approval-mismatch`). */
  readonly toolName?: string;
}

/**
 * A request "Approve all" did not approve, and why (`reviewAlone` when it must be reviewed alone).
 *
 * @example
 * const refusal: BatchRefusal = { requestId: 'confirmation-2', reason: 'transfer must be reviewed alone: …', reviewAlone: 'high-risk' };
 */
export interface BatchRefusal {
  readonly requestId: string;
  readonly reason: string;
  readonly reviewAlone?: AllowGrantRefusal;
}

/**
 * What {@link ConfirmationController.approveAll} gives back: the ids it approved (an array, as
 * before), and `refused`, the requests given that it did not approve, each with why.
 *
 * @example
 * const result: ApproveAllResult = confirmations.approveAll(picks);
 * for (const { requestId, reason } of result.refused) console.info(requestId, reason);
 */
export interface ApproveAllResult extends ReadonlyArray<string> {
  readonly refused: readonly BatchRefusal[];
}

/**
 * What {@link ConfirmationController.submitEdit} found: the edit is now the snapshot (a new
 * fingerprint follows), or why not (the editor stays open with these issues).
 *
 * @example
 * const result: EditResult = await confirmations.submitEdit(draft);
 * if (!result.ok) showIssues(result.issues);
 */
export type EditResult = { readonly ok: true } | { readonly ok: false; readonly issues: readonly ArgumentsIssue[] };

/**
 * What {@link ConfirmationController.noteAnswer} records about a call's answer.
 *
 * @example
 * const note: ApprovalNote = { status: 'refused', reason: 'FINGERPRINT_MISMATCH: the arguments changed' };
 */
export interface ApprovalNote {
  readonly status: 'denied' | 'refused' | 'expired';
  readonly reason?: string | undefined;
  /** The tool, for a call that has no record yet. */
  readonly toolName?: string | undefined;
}

/**
 * The confirmation queue and flow, as an external store. See {@link createConfirmationController}.
 *
 * @example
 * const confirmations: ConfirmationController = createConfirmationController({ room });
 */
export interface ConfirmationController {
  /**
   * Queue a request (or, for a descriptor that needs no confirmation, invoke it directly).
   * Resolves with the final outcome once the request leaves the controller; rejects with the
   * signal's reason when it is withdrawn.
   */
  request(request: ConfirmationRequest): Promise<ConfirmationOutcome>;
  /** Approve the shown request if it is being reviewed. Returns whether this call approved it. */
  approve(target?: ConfirmationTarget): boolean;
  /** Deny a request not yet approved (the shown one by default). Calls nothing in the room. */
  deny(reason?: string, target?: ConfirmationTarget): boolean;
  /**
   * Answer the shown request in the tool's place: `output` (JSON, snapshotted and frozen) becomes
   * the call's result, marked as answered by a person, and nothing runs. Returns whether it did;
   * an output that is not JSON answers nothing.
   */
  respond(output: unknown, target?: ConfirmationTarget): boolean;
  /** Withdraw a request not yet approved (the shown one by default): it ends `cancelled`, not denied, and nothing runs. */
  cancel(reason?: string, target?: ConfirmationTarget): boolean;
  /** Run the application's check on the shown `uncertain` request. */
  check(target?: ConfirmationTarget): boolean;
  /** Deliberate retry of the shown request when allowed; takes a new confirmation on the room path. */
  retry(target?: ConfirmationTarget): boolean;
  /** Close the shown `refused`, `failed` or `uncertain` request and show the next. */
  dismiss(target?: ConfirmationTarget): boolean;
  /** Withdraw every request not yet approved (e.g. the session closed). Returns how many. */
  withdrawAll(reason?: string): number;
  /** Open the editor of the shown request, when it is editable and under review. */
  edit(target?: ConfirmationTarget): boolean;
  /** Leave the editor without changing the arguments. */
  cancelEdit(target?: ConfirmationTarget): boolean;
  /**
   * Submit edited arguments of the shown request: they are checked (JSON, the schema, the
   * request's validator); valid, they become the snapshot and are fingerprinted afresh, to be
   * reviewed and approved; invalid, the editor stays open and the result says why.
   */
  submitEdit(draft: unknown, target?: ConfirmationTarget): Promise<EditResult>;
  /** Approve the shown request and allow its tool for the rest of the session (not offered for a high-risk tool). */
  allowForSession(target?: ConfirmationTarget): boolean;
  /** Deny the shown request (or one by id) and deny its tool for the rest of the session. */
  denyForSession(reason?: string, target?: ConfirmationTarget): boolean;
  /**
   * Approve the shown request as a person, then keep `rule` (a scoped grant: an `allow` made in the
   * dialog) beside the standing grants, where it answers the requests that wait and later ones
   * while it holds. `false`, and nothing kept, without a policy, for a rule the policy's check
   * refuses (a high-risk tool, …), or a rule that would not answer the shown request itself.
   */
  allowByRule(rule: PolicyRule, target?: ConfirmationTarget): boolean;
  /**
   * The requests waiting behind the shown one that `rule` would answer now, were it kept (by the
   * policy's own evaluation, with every other rule in force: a deny rule still wins). Empty
   * without a policy.
   */
  previewRule(rule: PolicyRule): readonly ConfirmationView[];
  /** The policy this controller evaluates requests by, or `undefined`. */
  readonly policy: ApprovalPolicy | undefined;
  /**
   * Approve exactly the requests given, each only while it still waits and still has the
   * fingerprint shown. Never a request that must be reviewed alone (a high-risk tool, one whose
   * risk is not declared, one confirmed every time: those that take no allow grant): it is refused
   * with a reason. Returns the ids it approved, with `refused` listing the others and why.
   */
  approveAll(picks: readonly ConfirmationPick[]): ApproveAllResult;
  /**
   * Bring a waiting request to the dialog, to be reviewed on its own (with its second step): it is
   * shown now, and the one that was shown waits at the head of the line, unless that one is in a
   * person's hands (being edited, running, an outcome to read): then it comes next. Returns
   * whether it is the one shown now.
   */
  show(target: ConfirmationTarget): boolean;
  /** Deny exactly the requests given (with one reason), each only while it still waits. Returns the ids it denied. */
  denyAll(picks: readonly ConfirmationPick[], reason?: string): readonly string[];
  /** The standing grants this controller answers requests by. */
  readonly grants: ToolGrants;
  /**
   * One approval record per call whose request carried a `callId`: where it stands, who decided,
   * what runs (docs/architecture.md, "The approval record"). Read-only: this controller is its
   * only writer, and a call's `approval*` fields are derived from it.
   */
  readonly records: ApprovalRecordStore;
  /**
   * Record what became of an answer after it left the queue, or an answer given without one: the
   * server refused it (`refused`, `expired`), or the page sent a denial in its place (`denied`,
   * e.g. the call's arguments changed after they were shown). It overrules an approval; any other
   * decision is final. Returns whether the call's record changed.
   */
  noteAnswer(callId: string, note: ApprovalNote): boolean;
  subscribe(listener: ConfirmationListener): () => void;
  getState(): ConfirmationState;
  /** The empty state: the server snapshot for `useSyncExternalStore`. */
  getInitialState(): ConfirmationState;
}

