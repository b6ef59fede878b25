/**
 * One request inside the controller: how it is taken in (checked, snapshotted, fingerprinted
 * text), the record the controller keeps for it, the table's guards, and the frozen view and
 * actions a dialog reads. Internal to the flow: `toolgate/core` exports none of it.
 */

import { canonicalJson } from '../json/canonical-json';
import {
  CONFIRMATION_EVENT_ROLES,
  confirmationStatusSets,
  CONFIRMATION_STATUSES,
  nextConfirmationStatus,
  rowOf,
  type ConfirmationEvent,
  type ConfirmationStatus,
} from './confirmation-machine';
import type {
  ApprovalContext,
  ArgumentsIssue,
  CheckOutcome,
  ConfirmationActions,
  ConfirmationDecider,
  ConfirmationEditing,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationView,
  DefinitionChange,
} from './confirmation-types';
import type { Fingerprint } from '../json/fingerprint';
import { snapshotJson, type JsonValue } from '../json/json-value';
import { reasonOf, type ToolRoom } from '../session/room';
import { resolveToolDescriptor, type ToolDescriptor } from './tool-descriptor';
import { allowGrantRefusal } from './tool-grants';
import type { HeldCall } from './approval-binding';
import type { DefinitionFingerprint } from './tool-definition';

/** What the controller keeps for one request. Only the controller changes it, through the table. */
export interface Entry {
  readonly id: string;
  readonly input: ConfirmationRequest;
  readonly toolName: string;
  /**
   * The deep-frozen arguments: shown, fingerprinted, confirmed and invoked (`null` when refused).
   * An accepted edit replaces it (and `canonical`, and clears the fingerprint) in `revising`, the
   * only state from which no call can start.
   */
  snapshot: JsonValue;
  /** Their canonical JSON (RFC 8785), which the fingerprint hashes. */
  canonical: string;
  /** The arguments as proposed, before any edit, and their canonical text. */
  readonly original: JsonValue;
  readonly originalCanonical: string;
  /** How it may be edited, or `null` when it may not. */
  readonly editing: ConfirmationEditing | null;
  /** Why the last submitted edit was rejected. */
  issues: readonly ArgumentsIssue[];
  /** When it expires (ms since the epoch), or `null`. */
  readonly expiresAt: number | null;
  /** The call this request's call is part of, taken in with the request. */
  readonly parent: ConfirmationView['parent'];
  /** Who decided it, set just before the decision's event is fired (the guards read it). */
  decidedBy: ConfirmationDecider | null;
  readonly descriptor: Readonly<ToolDescriptor>;
  readonly room: ToolRoom | undefined;
  readonly onApprove: ((args: JsonValue, context: ApprovalContext) => unknown) | undefined;
  readonly checkOutcome: CheckOutcome | undefined;
  /** Needs no confirmation: invoked without review and never shown. */
  readonly direct: boolean;
  status: ConfirmationStatus;
  fingerprint: Fingerprint | null;
  /** The tool definition's fingerprint, once computed (`null` when the request gave no definition). */
  definition: DefinitionFingerprint | null;
  /** The grant that did not answer it because its tool's definition changed since, and what changed. */
  definitionChanged: DefinitionChange | null;
  /** The call as its source holds it now, read when the request is approved. */
  readonly currentCall: (() => HeldCall | undefined) | undefined;
  /** It has been reviewed: an outcome it reaches stays shown until dismissed when the table holds it. */
  shown: boolean;
  confirmationId: string | null;
  /** 1 for the first run, 2 after one retry, …: an answer for an older attempt changes nothing. */
  attempt: number;
  checked: boolean;
  retryable: boolean;
  outcome: ConfirmationOutcome | null;
  view: ConfirmationView;
  resolve: (outcome: ConfirmationOutcome) => void;
  reject: (reason: unknown) => void;
  detachSignal: () => void;
  /** Stops its expiry timer (set when it has an `expiresAt`). */
  stopExpiry: () => void;
}

/** A request taken in: its record and the promise its caller holds, or the reason it was refused before review. */
export interface Admitted {
  readonly entry: Entry;
  readonly promise: Promise<ConfirmationOutcome>;
  /** Set when the arguments cannot be shown (not JSON, or no canonical form): it ends `refused` at once. */
  readonly refusal: string | undefined;
}

/**
 * Check a request and take it in. A request the caller got wrong (no tool name, no room and no
 * `onApprove`, both) throws a TypeError at the call site; arguments that cannot be shown are not
 * the caller's bug but the data's, and come back as a `refusal`.
 */
export function admitRequest(input: ConfirmationRequest, fallbackRoom: ToolRoom | undefined, checkOutcome: CheckOutcome | undefined, id: string): Admitted {
  const path = pathOf(input, fallbackRoom);
  const descriptor = resolveToolDescriptor(input.descriptor);
  const taken = takeArguments(input.arguments);
  let resolve!: Entry['resolve'];
  let reject!: Entry['reject'];
  const promise = new Promise<ConfirmationOutcome>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const entry: Entry = {
    id,
    input,
    toolName: path.toolName,
    snapshot: taken.ok ? taken.snapshot : null,
    canonical: taken.ok ? taken.canonical : '',
    original: taken.ok ? taken.snapshot : null,
    originalCanonical: taken.ok ? taken.canonical : '',
    editing: editingOf(input.editable),
    issues: NO_ISSUES,
    expiresAt: typeof input.expiresAt === 'number' && !Number.isNaN(input.expiresAt) ? input.expiresAt : null,
    parent: parentOf(input.parent),
    decidedBy: null,
    descriptor,
    room: path.room,
    onApprove: path.onApprove,
    checkOutcome: input.checkOutcome ?? checkOutcome,
    direct: !descriptor.requiresConfirmation,
    status: 'idle',
    fingerprint: null,
    definition: null,
    definitionChanged: null,
    currentCall: typeof input.currentCall === 'function' ? input.currentCall : undefined,
    shown: false,
    confirmationId: null,
    attempt: 1,
    checked: false,
    retryable: false,
    outcome: null,
    view: undefined as unknown as ConfirmationView,
    resolve,
    reject,
    detachSignal: () => {},
    stopExpiry: () => {},
  };
  refresh(entry);
  return { entry, promise, refusal: taken.ok ? undefined : taken.reason };
}

const NO_ISSUES: readonly ArgumentsIssue[] = Object.freeze([]);

/** `editable` as the entry keeps it: `true` is editing without a schema or a validator of its own. */
function editingOf(editable: ConfirmationRequest['editable']): ConfirmationEditing | null {
  if (editable === true) return Object.freeze({});
  if (typeof editable !== 'object' || editable === null) return null;
  const out: ConfirmationEditing = {};
  if (typeof editable.schema === 'object' && editable.schema !== null) out.schema = editable.schema;
  if (typeof editable.validate === 'function') out.validate = editable.validate;
  return Object.freeze(out);
}

function pathOf(input: ConfirmationRequest, fallbackRoom: ToolRoom | undefined): Pick<Entry, 'room' | 'onApprove' | 'toolName'> {
  if (typeof input !== 'object' || input === null) throw new TypeError('request() needs a request object');
  // Read once: the name shown is the name confirmed, invoked and answered, whatever a getter says later.
  const toolName: unknown = input.toolName;
  if (typeof toolName !== 'string' || toolName === '') throw new TypeError('request() needs a toolName (a non-empty string)');
  if (input.onApprove !== undefined) {
    if (typeof input.onApprove !== 'function') throw new TypeError('onApprove must be a function');
    if (input.room !== undefined) throw new TypeError('Give a request either a room or onApprove, not both');
    return { toolName, room: undefined, onApprove: input.onApprove };
  }
  const room = input.room ?? fallbackRoom;
  if (room === undefined) throw new TypeError(`The request for "${toolName}" has no room (on it or on the controller) and no onApprove`);
  return { toolName, room, onApprove: undefined };
}

/**
 * docs/protocol.md, "Confirmation": snapshot the arguments once, deep-freeze them, and refuse what is not JSON before
 * review. Taken when the request is taken in, so that nothing the caller does to its object later
 * reaches the screen, the fingerprint, confirmTool or invokeTool.
 */
export function takeArguments(value: unknown): { ok: true; snapshot: JsonValue; canonical: string } | { ok: false; reason: string } {
  const snapshot = snapshotJson(value);
  if (!snapshot.ok) return { ok: false, reason: `The arguments are not JSON: ${snapshot.reason}` };
  try {
    return { ok: true, snapshot: snapshot.value, canonical: canonicalJson(snapshot.value) };
  } catch (error) {
    return { ok: false, reason: `The arguments cannot be fingerprinted: ${reasonOf(error)}` };
  }
}

/* ------------------------------------------------------------- the guards */

/**
 * Whether `event` may happen to `entry` now: the table allows it from its status, and the guards
 * the table cannot express hold (listed with {@link CONFIRMATION_TRANSITIONS}). The one place the
 * controller and the actions a view offers ask.
 */
export function permits(entry: Entry, event: ConfirmationEvent): boolean {
  if (nextConfirmationStatus(entry.status, event) === undefined) return false;
  switch (event) {
    case 'review':
      return entry.fingerprint !== null;
    case 'edit':
      return entry.editing !== null && entry.fingerprint !== null;
    case 'confirm':
      if (batchedAlone(entry)) return false;
      if (entry.status === 'idle' && !answeredUnseen(entry)) return false;
      return entry.room !== undefined && !entry.direct && retryAllowed(entry);
    case 'invoke':
      if (batchedAlone(entry)) return false;
      // From `idle`: a call that needs no confirmation, or one a grant or a list answered, once its fingerprint is ready.
      if (entry.status === 'idle') return entry.fingerprint !== null && (entry.direct || (entry.room === undefined && answeredUnseen(entry)));
      return (entry.room === undefined || entry.direct) && retryAllowed(entry);
    case 'check':
      return entry.checkOutcome !== undefined;
    case 'deny':
    case 'cancel':
    case 'respond':
      // A call that needs no confirmation is never shown, so nobody can deny, withdraw or answer it.
      // (The table offers `respond` only under review or in the editor: a person is looking at it.)
      return !entry.direct;
    default:
      return true;
  }
}

/** "Approve all" over a request that must be reviewed alone: never, from any state. */
const batchedAlone = (entry: Entry): boolean => entry.decidedBy?.by === 'batch' && reviewAlone(entry.descriptor) !== undefined;

/**
 * A request that was not shown may still be approved: by a rule that allows it, a standing grant's
 * among them (never a tool that refuses allow grants), or by "Approve all" over a list that showed it with
 * its fingerprint. Never before its fingerprint exists: what is approved is always fingerprinted.
 */
function answeredUnseen(entry: Entry): boolean {
  const decider = entry.decidedBy;
  if (entry.fingerprint === null || decider === null) return false;
  if (decider.by === 'batch') return reviewAlone(entry.descriptor) === undefined;
  // A rule never allows a high-risk, undeclared-risk or confirm-every-time tool.
  return decider.by === 'rule' && decider.decision === 'allow' && allowGrantRefusal(entry.descriptor) === undefined;
}

/**
 * Why a request must be reviewed alone, in the dialog with its second step, never approved in a
 * list: the same requests that never take an allow grant (a high-risk tool, one whose risk is not
 * declared, one confirmed every time). `undefined` when a list may approve it.
 */
export const reviewAlone = allowGrantRefusal;

/** A retry of a lost write waits for the application's check when it has one; a failure is retried only when known safe. */
function retryAllowed(entry: Entry): boolean {
  // A tool whose retry is safe (running it twice does no more than once) needs no check first.
  if (entry.status === 'uncertain') return entry.checkOutcome === undefined || entry.checked || entry.descriptor.retrySafe === true;
  if (entry.status === 'failed') return entry.retryable;
  return true;
}

/** What approving (or retrying) fires: a new confirmation on the room path, a plain invoke otherwise. */
export function decisionEvent(entry: Entry): 'confirm' | 'invoke' {
  return entry.room !== undefined && !entry.direct ? 'confirm' : 'invoke';
}

/**
 * The actions the table (with its guards) allows now. Approve and retry fire the same event:
 * approve while a person is still deciding (a deny is possible), retry after an outcome.
 */
export function actionsOf(entry: Entry): ConfirmationActions {
  const deciding = permits(entry, 'deny');
  const start = permits(entry, decisionEvent(entry));
  const approve = deciding && start;
  return Object.freeze({
    approve,
    deny: deciding,
    check: permits(entry, 'check'),
    retry: !confirmationStatusSets().awaitingDecision.has(entry.status) && start,
    dismiss: entry.shown && confirmationStatusSets().held.has(entry.status),
    edit: permits(entry, 'edit'),
    allowForSession: approve && allowGrantRefusal(entry.descriptor) === undefined,
    denyForSession: deciding,
    respond: permits(entry, 'respond'),
    cancel: permits(entry, 'cancel'),
  });
}

/** A request's output schema when it is a JSON Schema object (anything else: none, and "Respond instead" is JSON text). */
function outputSchemaOf(schema: unknown): Record<string, unknown> | undefined {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>) : undefined;
}

/** The parent a request names, as plain frozen data (a request without one, or with an unusable one, has none). */
function parentOf(parent: ConfirmationRequest['parent']): ConfirmationView['parent'] {
  if (parent === undefined || parent === null || typeof parent.callId !== 'string' || parent.callId === '') return null;
  const toolName = typeof parent.toolName === 'string' && parent.toolName !== '' ? parent.toolName : undefined;
  return Object.freeze({ callId: parent.callId, toolName });
}

/** Build the entry's frozen view again (after any change to it). */
export function refresh(entry: Entry): void {
  entry.view = Object.freeze({
    id: entry.id,
    status: entry.status,
    toolName: entry.toolName,
    title: entry.descriptor.title ?? entry.toolName,
    arguments: entry.snapshot,
    original: entry.original,
    edited: entry.snapshot !== entry.original,
    editable: entry.editing !== null,
    schema: entry.editing?.schema,
    outputSchema: outputSchemaOf(entry.input.outputSchema),
    issues: entry.issues,
    expiresAt: entry.expiresAt,
    decidedBy: entry.decidedBy,
    grantRefusal: allowGrantRefusal(entry.descriptor) ?? null,
    fingerprint: entry.fingerprint,
    definition: entry.definition,
    definitionChanged: entry.definitionChanged,
    descriptor: entry.descriptor,
    path: entry.room ? 'room' : 'callback',
    callId: entry.input.callId,
    turnId: entry.input.turnId,
    parent: entry.parent,
    confirmationId: entry.confirmationId,
    attempt: entry.attempt,
    outcome: entry.outcome,
    checked: entry.checked,
    checkable: entry.checkOutcome !== undefined,
    can: actionsOf(entry),
  });
}

/* ------------------------------------------------------------- outcomes */

const OUTCOME_ROLES: readonly string[] = ['success', 'problem', 'decline'];

/**
 * The one event that ends a request in `outcome` (`done` by `succeed`, `uncertain` by `lose`,
 * …), read from the table: every outcome is settled through it (a test holds it to one event each).
 */
export function outcomeEvent(outcome: ConfirmationOutcome['status']): ConfirmationEvent {
  for (const status of CONFIRMATION_STATUSES) {
    for (const [event, next] of rowOf(status)) if (next === outcome && OUTCOME_ROLES.includes(CONFIRMATION_EVENT_ROLES[event])) return event;
  }
  throw new Error(`No event of the confirmation table ends in ${outcome}`);
}
