/**
 * The shapes of the confirmation flow: the outcome union of docs/protocol.md, "Confirmation", a request,
 * the immutable view of one, the controller's snapshot, and the controller's own interface.
 */

import type { ApprovalRecordStore } from './approval-records';
import type { ErrorReporter } from '../external-store';
import type { Fingerprint, FingerprintOptions } from '../json/fingerprint';
import type { JsonPathStep } from '../json/json-diff';
import type { JsonValue } from '../json/json-value';
import type { ConfirmationStatus } from './confirmation-machine';
import type { ToolRoom } from '../session/room';
import type { ToolDescriptor } from './tool-descriptor';
import type { AllowGrantRefusal, ToolGrant, ToolGrants } from './tool-grants';
import type { HeldCall } from './approval-binding';
import type { DefinitionFingerprint, ToolDefinition, ToolDefinitionPart } from './tool-definition';
import type { Policy, PolicyRequest, PolicyResult, PolicyRule } from '../policy/policy-types';

/**
 * How a request ended: done (with the room's own response as `output`), denied by the person,
 * refused by the room before anything ran, failed (the room answered no), uncertain (no answer
 * came: it may have taken effect; never retried by itself), or expired (its `expiresAt` passed
 * before anyone decided: nothing ran), responded (a person's answer replaces running the tool) or
 * cancelled (a person withdrew it: not a rejection). `fingerprint` is the full SHA-256 hex of the canonical
 * arguments that ran; `confirmationId` is `null` for a call that needed no confirmation (or went
 * through `onApprove`, without a room).
 *
 * @example
 * if (outcome.status === 'uncertain') showCheckFirst(outcome.reason);
 */
export type ConfirmationOutcome =
  | { readonly status: 'done'; readonly output: unknown; readonly fingerprint: string; readonly confirmationId: string | null }
  | { readonly status: 'denied'; readonly reason?: string }
  | { readonly status: 'refused'; readonly reason: string; readonly code?: 'approval-mismatch' }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'uncertain'; readonly reason: string }
  | { readonly status: 'expired' }
  /** A person answered in the tool's place: `output` is the call's result, and nothing ran. */
  | { readonly status: 'responded'; readonly output: JsonValue }
  /** A person withdrew the request: not a rejection (the model is told it was cancelled), and nothing ran. */
  | { readonly status: 'cancelled'; readonly reason?: string };

/**
 * The statuses that are outcomes (the union of docs/protocol.md, "Confirmation").
 *
 * @example
 * const ended: ConfirmationOutcomeStatus = 'uncertain';
 */
export type ConfirmationOutcomeStatus = ConfirmationOutcome['status'];

/**
 * What the application's own check found after an unknown outcome.
 *
 * @example
 * const found: OutcomeCheckResult = (await ledger.has(receiptKey)) ? { status: 'done', output: 'found' } : { status: 'not-done' };
 */
export type OutcomeCheckResult =
  /** It took effect; `output` is what the check found (shown as the result). */
  | { status: 'done'; output?: unknown }
  /** It did not take effect: a deliberate retry is safe. */
  | { status: 'not-done'; reason?: string }
  /** The check cannot tell either. */
  | { status: 'unknown'; reason?: string };

/**
 * What the application's check is given.
 *
 * @example
 * const check: CheckOutcome = ({ fingerprint }: OutcomeCheckContext) => ledger.lookup(fingerprint);
 */
export interface OutcomeCheckContext {
  readonly requestId: string;
  readonly toolName: string;
  readonly arguments: JsonValue;
  readonly fingerprint: string;
  /** The confirmation id the lost call used (`null` without one). */
  readonly confirmationId: string | null;
  readonly descriptor: Readonly<ToolDescriptor>;
  readonly callId?: string;
  /** Why the outcome is unknown. */
  readonly reason: string;
}

/**
 * The application's own way to find out whether a call whose answer was lost took effect
 * before a write is retried: a blind retry could do it twice. The kit never retries by itself.
 *
 * @example
 * const checkOutcome: CheckOutcome = async ({ arguments: args }) =>
 *   (await bank.findTransfer(args)) ? { status: 'done', output: 'found in the ledger' } : { status: 'not-done' };
 */
export type CheckOutcome = (context: OutcomeCheckContext) => OutcomeCheckResult | Promise<OutcomeCheckResult>;

/**
 * A standing grant that no longer answers a request because its tool's definition changed since
 * the grant was given: the grant, and the parts that changed (in reading order).
 *
 * @example
 * const change: DefinitionChange | null = view.definitionChanged;
 * change?.parts // e.g. ['description', 'parameters']
 */
export interface DefinitionChange {
  readonly grant: ToolGrant;
  readonly parts: readonly ToolDefinitionPart[];
}

/* ------------------------------------------------------------------ requests */

/**
 * Who decided a request: a person looking at it, a standing grant (named), or "Approve all" /
 * "Deny all" over a list of `size` requests that showed each one with its fingerprint.
 *
 * @example
 * const why = decider.by === 'grant' ? `answered by ${decider.grant.id}` : 'answered by you';
 */
export type ConfirmationDecider =
  | { readonly by: 'person' }
  | { readonly by: 'grant'; readonly grant: ToolGrant }
  | { readonly by: 'batch'; readonly size: number }
  /** A policy rule answered it, with nobody looking at it: the rule's id, its label when it has one, and what it decided. */
  | { readonly by: 'rule'; readonly ruleId: string; readonly label?: string; readonly decision: 'allow' | 'deny' };

/**
 * One problem with edited arguments, where it is (`[]` for the whole value).
 *
 * @example
 * const issue: ArgumentsIssue = { path: ['amount'], message: 'must be at most 1000' };
 */
export interface ArgumentsIssue {
  readonly path: readonly JsonPathStep[];
  readonly message: string;
}

/**
 * What a check of edited arguments found: valid (with the value to approve when the check gives
 * one, e.g. a validator's output with defaults filled in), or the issues to show in the editor.
 *
 * @example
 * const validate = (draft: JsonValue): ArgumentsCheck => (typeof draft === 'object' ? { ok: true } : { ok: false, issues: [{ path: [], message: 'must be an object' }] });
 */
export type ArgumentsCheck = { readonly ok: true; readonly value?: unknown } | { readonly ok: false; readonly issues: readonly ArgumentsIssue[] };

/**
 * How a request may be edited before it is approved: the JSON Schema its form is built from and
 * drafts are checked against, and the check that must pass (an app tool's own validator). Edited
 * arguments are validated again, get their own fingerprint, and are what runs.
 *
 * @example
 * const editing: ConfirmationEditing = { schema: tool.parameters, validate: (draft) => checkWithZod(draft) };
 */
export interface ConfirmationEditing {
  /** The arguments' JSON Schema: the editor is a form of its fields where it can be; drafts must satisfy it. */
  schema?: Record<string, unknown>;
  /** Checks a draft after the schema; a rejection keeps the person in the editor with its issues. */
  validate?: (draft: JsonValue) => ArgumentsCheck | Promise<ArgumentsCheck>;
}

/**
 * What `onApprove` is given besides the arguments.
 *
 * @example
 * onApprove: (args, { fingerprint }: ApprovalContext) => send({ type: 'tool.approval', requestId, approved: true, fingerprint: fingerprint.hex })
 */
export interface ApprovalContext {
  readonly requestId: string;
  readonly toolName: string;
  readonly fingerprint: Fingerprint;
  /** The fingerprint of the tool's definition, when the request gave one. */
  readonly definition: DefinitionFingerprint | null;
  readonly descriptor: Readonly<ToolDescriptor>;
  /** A person edited the arguments: the snapshot approved differs from the one proposed. */
  readonly edited: boolean;
  /** The arguments as they were proposed (the model's, or the gate's), before any edit. */
  readonly original: JsonValue;
  /** Who approved it: a person, a standing grant, or "Approve all" over a list that showed it (`null`: it needed no confirmation). */
  readonly decidedBy: ConfirmationDecider | null;
  /** `true` when a standing grant or a policy rule answered it, with no person looking at this request. */
  readonly automatic: boolean;
  /** 1 for the first run, 2 after one retry, … */
  readonly attempt: number;
  readonly callId?: string;
  readonly turnId?: string;
}

interface ConfirmationRequestBase {
  toolName: string;
  /** Snapshotted and deep-frozen when the request is taken in; later changes to this object change nothing. */
  arguments: unknown;
  /** Missing: a write that needs confirmation (docs/protocol.md, "Rooms"). */
  descriptor?: Partial<ToolDescriptor> | null;
  /** Offered after an unknown outcome of a write; overrides the controller's. */
  checkOutcome?: CheckOutcome;
  /** Aborting it withdraws a request that was not approved yet; after approval it changes nothing. */
  signal?: AbortSignal;
  /** The tool call this request guards, for cards that show "awaiting approval". */
  callId?: string;
  turnId?: string;
  /** The call this one is part of (a sub-agent's call names the tool that runs it): its id, and its tool name when known. */
  parent?: { callId: string; toolName?: string | undefined };
  /** The person may edit the arguments before approving (`true`: as JSON text, or a form when given a schema). */
  editable?: boolean | ConfirmationEditing;
  /** The JSON Schema of the tool's output: "Respond instead" is then a form of its fields (else JSON text). */
  outputSchema?: Record<string, unknown> | undefined;
  /** When the request ends `expired` if nobody decided, in ms since the epoch (by the controller's clock). */
  expiresAt?: number;
  /**
   * The tool's definition (name, description, parameters, descriptor), where it is known: the
   * request carries its fingerprint, and a standing grant given for another definition of the tool
   * does not answer it (the dialog says what changed).
   */
  definition?: ToolDefinition;
  /**
   * The call as its source holds it now (the card's call, a chat's tool part). Read when the request
   * is approved (by a person, a list, a grant), before anything is confirmed, invoked or answered:
   * when it names another tool than `toolName`, the request ends `refused` with code
   * `approval-mismatch`, nothing runs, and `onError` is told `approval-mismatch`.
   */
  currentCall?: () => HeldCall | undefined;
  /** Called on a deny, with its reason, before `onResult`. */
  onDeny?: (reason: string | undefined, request: ConfirmationView) => void;
  /** Called each time the request reaches an outcome (an `uncertain` may later become `done`). */
  onResult?: (outcome: ConfirmationOutcome, request: ConfirmationView) => void;
}

/**
 * A request for confirmation. Either the room path (`room`, or the controller's room): approve
 * runs `confirmTool` then `invokeTool`; or the path without a room (`onApprove`): approve calls
 * `onApprove(snapshot)`, whose return value is the output. The second serves app tools and the
 * server's before-tool-call gate.
 *
 * @example
 * const viaRoom: ConfirmationRequest = { toolName: 'transfer', arguments: { to: 'bob' }, descriptor };
 * const viaCallback: ConfirmationRequest = { toolName: 'insert_text', arguments, onApprove: () => null, onDeny: (why) => log(why) };
 */
export type ConfirmationRequest = ConfirmationRequestBase &
  (
    | { room?: ToolRoom; onApprove?: undefined }
    | { onApprove: (args: JsonValue, context: ApprovalContext) => unknown; room?: undefined }
  );

/**
 * Which actions a request accepts right now (what a dialog enables).
 *
 * @example
 * <button disabled={!view.can.approve} onClick={() => confirmations.approve({ requestId: view.id })}>Approve</button>
 */
export interface ConfirmationActions {
  readonly approve: boolean;
  readonly deny: boolean;
  readonly check: boolean;
  readonly retry: boolean;
  readonly dismiss: boolean;
  /** Open the editor (an editable request under review). */
  readonly edit: boolean;
  /** Approve it and allow its tool for the rest of the session (never for a high-risk tool). */
  readonly allowForSession: boolean;
  /** Deny it and deny its tool for the rest of the session. */
  readonly denyForSession: boolean;
  /** Answer in the tool's place (the request is shown and a person is deciding it). */
  readonly respond: boolean;
  /** Withdraw it: not a rejection. */
  readonly cancel: boolean;
}

/**
 * An immutable view of one request. A new object whenever anything in it changes.
 *
 * @example
 * const { title, arguments: args, fingerprint, status } = confirmations.getState().current!;
 */
export interface ConfirmationView {
  readonly id: string;
  readonly status: ConfirmationStatus;
  readonly toolName: string;
  /** The proposed action: the descriptor's title, or the tool's name. */
  readonly title: string;
  /** The deep-frozen snapshot: what is shown, confirmed and invoked (`null` if the arguments were refused); after an edit, the edited arguments. */
  readonly arguments: JsonValue;
  /** The arguments as proposed, before any edit (the same object as `arguments` until one). */
  readonly original: JsonValue;
  /** `arguments` were edited by a person and differ from `original`. */
  readonly edited: boolean;
  /** Whether a person may edit the arguments before approving. */
  readonly editable: boolean;
  /** The JSON Schema the editor's form is built from, when the request gave one. */
  readonly schema: Record<string, unknown> | undefined;
  /** The JSON Schema of the tool's output, when the request gave one: a person's answer (respond) is a form of it. */
  readonly outputSchema: Record<string, unknown> | undefined;
  /** Why the last edited arguments were not accepted (empty unless the last submit was rejected). */
  readonly issues: readonly ArgumentsIssue[];
  /** When it expires, in ms since the epoch, or `null`. */
  readonly expiresAt: number | null;
  /** Who decided it, once decided. */
  readonly decidedBy: ConfirmationDecider | null;
  /** Why "Allow for this session" is not offered for it (high risk, risk not declared, confirmed every time), or `null`. */
  readonly grantRefusal: AllowGrantRefusal | null;
  /** `null` until computed (the request stays `idle` until then). */
  readonly fingerprint: Fingerprint | null;
  /** The fingerprint of the tool's definition, when the request gave one (`null` otherwise, or until computed). */
  readonly definition: DefinitionFingerprint | null;
  /**
   * The standing grant of its tool that did not answer it because the tool's definition changed
   * since it was given, and the parts that changed: what the dialog names. `null` otherwise.
   */
  readonly definitionChanged: DefinitionChange | null;
  readonly descriptor: Readonly<ToolDescriptor>;
  /** `room`: confirmTool then invokeTool; `callback`: onApprove. */
  readonly path: 'room' | 'callback';
  readonly callId: string | undefined;
  readonly turnId: string | undefined;
  /** The call this request's call is part of (a sub-agent's call: the tool that runs it), or `null`. */
  readonly parent: { readonly callId: string; readonly toolName: string | undefined } | null;
  /** The confirmation id of the current attempt, once the room gave one. */
  readonly confirmationId: string | null;
  readonly attempt: number;
  /** Set in an outcome state. */
  readonly outcome: ConfirmationOutcome | null;
  /** Whether the application's check ran since the last unknown outcome. */
  readonly checked: boolean;
  /** `true` when this request can offer a check after an unknown outcome. */
  readonly checkable: boolean;
  readonly can: ConfirmationActions;
}

/**
 * The controller's snapshot, handed to `useSyncExternalStore`: never changed once handed out.
 *
 * @example
 * const state = useSyncExternalStore(confirmations.subscribe, confirmations.getState, confirmations.getInitialState);
 * state.waiting // how many wait behind the one shown
 */
export interface ConfirmationState {
  /** The shown request's status, or `idle` when none is shown. */
  readonly status: ConfirmationStatus;
  /** The request shown (one at a time), or `null`. */
  readonly current: ConfirmationView | null;
  /** The requests waiting behind it, in order. */
  readonly queue: readonly ConfirmationView[];
  /** How many wait behind the shown one (`queue.length`). */
  readonly waiting: number;
  /** The latest outcome of any request, with the request it belongs to. */
  readonly last: { readonly requestId: string; readonly toolName: string; readonly outcome: ConfirmationOutcome } | null;
}

/**
 * Picks a request by id; without it, the shown one. Guards a late "yes" from approving the next request.
 *
 * @example
 * confirmations.approve({ requestId: idHeardBySpeech });
 * confirmations.respond({ answer: 'Use the shared drive' }, { callId: 'call_7' });
 */
export interface ConfirmationTarget {
  requestId?: string;
  /** Or the request that guards this tool call (`requestId` wins when both are given). */
  callId?: string;
}

/**
 * Told after every change, with the new and the previous snapshot.
 *
 * @example
 * const stop = confirmations.subscribe((state, previous) => { if (state.waiting > previous.waiting) chime(); });
 */
export type ConfirmationListener = (state: ConfirmationState, previous: ConfirmationState) => void;

/* ------------------------------------------------------------- policies */

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

