/**
 * The shapes of the confirmation flow: the outcome union of docs/protocol.md, "Confirmation", a request,
 * the immutable view of one, and the controller's snapshot. The controller's own interface and options
 * are in confirmation-controller-types.ts.
 */

import type { Fingerprint } from '../json/fingerprint';
import type { JsonPathStep } from '../json/json-diff';
import type { JsonValue } from '../json/json-value';
import type { ConfirmationStatus } from './confirmation-machine';
import type { ToolRoom } from '../session/room';
import type { ToolDescriptor } from './tool-descriptor';
import type { AllowGrantRefusal, ToolGrant } from './tool-grants';
import type { PolicyOrigin } from '../policy/policy-types';
import type { HeldCall } from './approval-binding';
import type { DefinitionFingerprint, ToolDefinition, ToolDefinitionPart } from './tool-definition';

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
 * Who decided a request: a person looking at it, a rule (the app's, or one a person gave: a
 * standing grant has origin `grant`, a scoped grant origin `person`), or "Approve all" /
 * "Deny all" over a list of `size` requests that showed each one with its fingerprint.
 *
 * @example
 * const why = decider.by === 'rule' ? `answered by ${decider.label ?? decider.ruleId}` : 'answered by you';
 */
export type ConfirmationDecider =
  | { readonly by: 'person' }
  | { readonly by: 'batch'; readonly size: number }
  /** A rule answered it, with nobody looking at it: the rule's id, its label when it has one, what it decided, and who made it. */
  | { readonly by: 'rule'; readonly ruleId: string; readonly label?: string; readonly decision: 'allow' | 'deny'; readonly origin?: PolicyOrigin };

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
  /** Who approved it: a person, a rule (a standing grant is one), or "Approve all" over a list that showed it (`null`: it needed no confirmation). */
  readonly decidedBy: ConfirmationDecider | null;
  /** `true` when a rule (the app's, a standing or a scoped grant) answered it, with no person looking at this request. */
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
