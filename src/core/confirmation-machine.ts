/**
 * The confirmation flow: a transition table, and a controller that owns the queue of pending
 * requests and runs each one through the table.
 *
 * DESIGN "Confirmation" is the rulebook; each rule is cited where it is implemented. The
 * controller is a plain external store (`subscribe/getState/getInitialState`) so that the
 * React hook is a thin `useSyncExternalStore` over it, and so that spoken confirmations,
 * cards and dialogs can all drive the same request (DESIGN conventions 3 and 6).
 */

import { canonicalJson } from './canonical-json';
import { fingerprintCanonical, type Fingerprint, type FingerprintOptions } from './fingerprint';
import { snapshotJson, type JsonValue } from './json-value';
import { classifyRoomError, reasonOf, type ToolRoom } from './room';
import { resolveToolDescriptor, type ToolDescriptor } from './tool-descriptor';

/* ------------------------------------------------------------------ the table */

/**
 * The states of one request, in the order a request usually meets them.
 *
 * @example
 * CONFIRMATION_STATUSES.includes(view.status) // true
 * - `idle`: taken in (arguments snapshotted and frozen), waiting for its fingerprint or its turn;
 * - `reviewing`: shown to a person, who may approve or deny;
 * - `confirming`: `room.confirmTool` in flight;
 * - `invoking`: `room.invokeTool` (or `onApprove`) in flight; nothing cancels it;
 * - `checking`: the application's `checkOutcome` in flight, after an unknown outcome;
 * - `done`, `denied`, `refused`, `failed`, `uncertain`: the outcomes of DESIGN's union;
 * - `withdrawn`: the requester took the request back before it was approved (its signal aborted).
 */
export const CONFIRMATION_STATUSES = [
  'idle',
  'reviewing',
  'confirming',
  'invoking',
  'checking',
  'done',
  'denied',
  'refused',
  'failed',
  'uncertain',
  'withdrawn',
] as const;
/**
 * Where a confirmation request stands, from `reviewing` to its outcome.
 *
 * @example
 * const busy = (status: ConfirmationStatus) => status === 'confirming' || status === 'invoking';
 */
export type ConfirmationStatus = (typeof CONFIRMATION_STATUSES)[number];

/**
 * What can happen to a request.
 *
 * @example
 * for (const event of CONFIRMATION_EVENTS) nextConfirmationStatus('reviewing', event);
 * - `review`: it is at the head of the queue and its fingerprint is ready;
 * - `confirm`: ask the room for a (new) confirmation id;
 * - `invoke`: invoke without a new confirmation (a descriptor that needs none, the path
 *   without a room, or a plain retry of such a call);
 * - `confirmed`: the room gave a confirmation id;
 * - `succeed` / `fail` / `lose`: the call (or the check) answered, answered no, or gave no answer
 *   for a write;
 * - `check`: run the application's `checkOutcome`;
 * - `refuse`: the request cannot go on (arguments not JSON, no Web Crypto, confirmation refused);
 * - `deny`, `withdraw`: a person said no; the requester took it back.
 */
export const CONFIRMATION_EVENTS = [
  'review',
  'confirm',
  'invoke',
  'confirmed',
  'succeed',
  'fail',
  'lose',
  'check',
  'refuse',
  'deny',
  'withdraw',
] as const;
/**
 * Something that can happen to a confirmation request (see {@link CONFIRMATION_TRANSITIONS}).
 *
 * @example
 * const event: ConfirmationEvent = 'confirm';
 * nextConfirmationStatus('reviewing', event) // 'confirming'
 */
export type ConfirmationEvent = (typeof CONFIRMATION_EVENTS)[number];

/**
 * `state -> event -> state` (DESIGN convention 5). A pair that is not listed is not allowed and
 * changes nothing: that is what makes `approve()` idempotent (only `reviewing` accepts
 * `confirm`), and what keeps a deny or a withdrawal from cancelling an approved call
 * (`confirming` and `invoking` accept neither: "after approval nothing cancels an invoke in flight").
 *
 * Guards the table cannot express, kept by the controller:
 * - `idle --invoke-->` only for a descriptor with `requiresConfirmation: false` (never reviewed);
 * - `reviewing --confirm-->` on the room path, `reviewing --invoke-->` on the path without a room;
 * - `uncertain --confirm|invoke-->` (the deliberate retry) only after the application's check
 *   when it offers one, and always through a new confirmation on the room path;
 * - `failed --confirm|invoke-->` (retry) only for a read tool, or a write whose check found that it
 *   did not take effect.
 *
 * | state      | review    | confirm    | invoke   | confirmed | succeed | fail   | lose      | check    | refuse  | deny   | withdraw  |
 * |------------|-----------|------------|----------|-----------|---------|--------|-----------|----------|---------|--------|-----------|
 * | idle       | reviewing |            | invoking |           |         |        |           |          | refused | denied | withdrawn |
 * | reviewing  |           | confirming | invoking |           |         |        |           |          |         | denied | withdrawn |
 * | confirming |           |            |          | invoking  |         |        |           |          | refused |        |           |
 * | invoking   |           |            |          |           | done    | failed | uncertain |          |         |        |           |
 * | checking   |           |            |          |           | done    | failed | uncertain |          |         |        |           |
 * | uncertain  |           | confirming | invoking |           |         |        |           | checking |         |        |           |
 * | failed     |           | confirming | invoking |           |         |        |           |          |         |        |           |
 * | done, denied, refused, withdrawn: final                                                                                      |
 *
 * @example
 * CONFIRMATION_TRANSITIONS.reviewing.confirm // 'confirming'
 */
export const CONFIRMATION_TRANSITIONS = {
  idle: { review: 'reviewing', invoke: 'invoking', refuse: 'refused', deny: 'denied', withdraw: 'withdrawn' },
  reviewing: { confirm: 'confirming', invoke: 'invoking', deny: 'denied', withdraw: 'withdrawn' },
  confirming: { confirmed: 'invoking', refuse: 'refused' },
  invoking: { succeed: 'done', fail: 'failed', lose: 'uncertain' },
  checking: { succeed: 'done', fail: 'failed', lose: 'uncertain' },
  uncertain: { check: 'checking', confirm: 'confirming', invoke: 'invoking' },
  failed: { confirm: 'confirming', invoke: 'invoking' },
  done: {},
  denied: {},
  refused: {},
  withdrawn: {},
} as const satisfies {
  readonly [S in ConfirmationStatus]: { readonly [E in ConfirmationEvent]?: ConfirmationStatus };
};

/**
 * The state `event` leads to from `status`, or `undefined` when the table does not allow it.
 *
 * @example
 * nextConfirmationStatus('reviewing', 'confirm')  // 'confirming'
 * nextConfirmationStatus('confirming', 'confirm') // undefined: a second approval changes nothing
 */
export function nextConfirmationStatus(status: ConfirmationStatus, event: ConfirmationEvent): ConfirmationStatus | undefined {
  const row: { readonly [E in ConfirmationEvent]?: ConfirmationStatus } = CONFIRMATION_TRANSITIONS[status];
  return row[event];
}

/* --------------------------------------------------------------- the outcome */

/**
 * How a request ended: done (with the room's own response as `output`), denied by the person,
 * refused by the room before anything ran, failed (the room answered no), or uncertain (no answer
 * came: it may have taken effect; never retried by itself). `fingerprint` is the full
 * SHA-256 hex of the canonical arguments that ran; `confirmationId` is `null` for a call that
 * needed no confirmation (or went through `onApprove`, without a room).
 *
 * @example
 * if (outcome.status === 'uncertain') showCheckFirst(outcome.reason);
 */
export type ConfirmationOutcome =
  | { readonly status: 'done'; readonly output: unknown; readonly fingerprint: string; readonly confirmationId: string | null }
  | { readonly status: 'denied'; readonly reason?: string }
  | { readonly status: 'refused'; readonly reason: string }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'uncertain'; readonly reason: string };

/**
 * The statuses that are outcomes (DESIGN's union).
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

/* ------------------------------------------------------------------ requests */

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
  readonly descriptor: Readonly<ToolDescriptor>;
  /** 1 for the first run, 2 after one retry, … */
  readonly attempt: number;
  readonly callId?: string;
  readonly turnId?: string;
}

interface ConfirmationRequestBase {
  toolName: string;
  /** Snapshotted and deep-frozen when the request is taken in; later changes to this object change nothing. */
  arguments: unknown;
  /** Missing: a write that needs confirmation (DESIGN). */
  descriptor?: Partial<ToolDescriptor> | null;
  /** Offered after an unknown outcome of a write; overrides the controller's. */
  checkOutcome?: CheckOutcome;
  /** Aborting it withdraws a request that was not approved yet; after approval it changes nothing. */
  signal?: AbortSignal;
  /** The tool call this request guards, for cards that show "awaiting approval". */
  callId?: string;
  turnId?: string;
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
  /** The deep-frozen snapshot: what is shown, confirmed and invoked (`null` if the arguments were refused). */
  readonly arguments: JsonValue;
  /** `null` until computed (the request stays `idle` until then). */
  readonly fingerprint: Fingerprint | null;
  readonly descriptor: Readonly<ToolDescriptor>;
  /** `room`: confirmTool then invokeTool; `callback`: onApprove. */
  readonly path: 'room' | 'callback';
  readonly callId: string | undefined;
  readonly turnId: string | undefined;
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
 */
export interface ConfirmationTarget {
  requestId?: string;
}

/**
 * Told after every change, with the new and the previous snapshot.
 *
 * @example
 * const stop = confirmations.subscribe((state, previous) => { if (state.waiting > previous.waiting) chime(); });
 */
export type ConfirmationListener = (state: ConfirmationState, previous: ConfirmationState) => void;

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
  /** Errors thrown by listeners and callbacks; by default they are rethrown asynchronously. */
  onError?: (error: unknown) => void;
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
  /** Run the application's check on the shown `uncertain` request. */
  check(target?: ConfirmationTarget): boolean;
  /** Deliberate retry of the shown request when allowed; takes a new confirmation on the room path. */
  retry(target?: ConfirmationTarget): boolean;
  /** Close the shown `refused`, `failed` or `uncertain` request and show the next. */
  dismiss(target?: ConfirmationTarget): boolean;
  /** Withdraw every request not yet approved (e.g. the session closed). Returns how many. */
  withdrawAll(reason?: string): number;
  subscribe(listener: ConfirmationListener): () => void;
  getState(): ConfirmationState;
  /** The empty state: the server snapshot for `useSyncExternalStore`. */
  getInitialState(): ConfirmationState;
}

/* ---------------------------------------------------------------- controller */

interface Entry {
  readonly id: string;
  readonly input: ConfirmationRequest;
  readonly toolName: string;
  readonly snapshot: JsonValue;
  readonly canonical: string;
  readonly descriptor: Readonly<ToolDescriptor>;
  readonly room: ToolRoom | undefined;
  readonly onApprove: ((args: JsonValue, context: ApprovalContext) => unknown) | undefined;
  readonly checkOutcome: CheckOutcome | undefined;
  /** Needs no confirmation: invoked without review and never shown. */
  readonly direct: boolean;
  status: ConfirmationStatus;
  fingerprint: Fingerprint | null;
  shown: boolean;
  confirmationId: string | null;
  attempt: number;
  checked: boolean;
  retryable: boolean;
  outcome: ConfirmationOutcome | null;
  view: ConfirmationView;
  resolve: (outcome: ConfirmationOutcome) => void;
  reject: (reason: unknown) => void;
  detachSignal: () => void;
}

const EMPTY_QUEUE: readonly ConfirmationView[] = Object.freeze([]);

/** Held on screen until dismissed, so that a person reads them (DESIGN: "end in a clear message"). */
const HELD: ReadonlySet<ConfirmationStatus> = new Set(['refused', 'failed', 'uncertain']);

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
 *
 * @example
 * const confirmations = createConfirmationController({ room });
 * const outcome = confirmations.request({ toolName: 'transfer', arguments: { to: 'bob', amount: 5 }, descriptor });
 * // in the dialog, or from a spoken "yes":
 * confirmations.approve({ requestId: confirmations.getState().current?.id });
 * await outcome; // { status: 'done', output, fingerprint, confirmationId }
 */
export function createConfirmationController(options: ConfirmationControllerOptions = {}): ConfirmationController {
  const fingerprintOptions: FingerprintOptions = 'crypto' in options ? { crypto: options.crypto } : {};
  const live = new Map<string, Entry>();
  const queue: Entry[] = [];
  const listeners = new Set<ConfirmationListener>();
  let current: Entry | null = null;
  let last: ConfirmationState['last'] = null;
  let counter = 0;

  const initialState: ConfirmationState = Object.freeze({
    status: 'idle',
    current: null,
    queue: EMPTY_QUEUE,
    waiting: 0,
    last: null,
  });
  let state = initialState;

  const report = (error: unknown): void => {
    if (options.onError) {
      try {
        options.onError(error);
      } catch {
        // An error handler that throws has nowhere left to report to.
      }
    } else {
      // Like reportError: a broken listener or callback must not stop the flow half-way.
      queueMicrotask(() => {
        throw error;
      });
    }
  };

  const safely = (fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      report(error);
    }
  };

  const publish = (): void => {
    const previous = state;
    state = Object.freeze({
      status: current ? current.status : 'idle',
      current: current ? current.view : null,
      queue: queue.length === 0 ? EMPTY_QUEUE : Object.freeze(queue.map((entry) => entry.view)),
      waiting: queue.length,
      last,
    });
    for (const listener of [...listeners]) safely(() => listener(state, previous));
  };

  const actionsOf = (entry: Entry): ConfirmationActions => {
    const check = entry.status === 'uncertain' && entry.checkOutcome !== undefined;
    const retry =
      (entry.status === 'uncertain' && (entry.checkOutcome === undefined || entry.checked)) ||
      (entry.status === 'failed' && entry.retryable);
    return Object.freeze({
      approve: entry.status === 'reviewing',
      deny: !entry.direct && (entry.status === 'idle' || entry.status === 'reviewing'),
      check,
      retry,
      dismiss: entry.shown && HELD.has(entry.status),
    });
  };

  const refresh = (entry: Entry): void => {
    entry.view = Object.freeze({
      id: entry.id,
      status: entry.status,
      toolName: entry.toolName,
      title: entry.descriptor.title ?? entry.toolName,
      arguments: entry.snapshot,
      fingerprint: entry.fingerprint,
      descriptor: entry.descriptor,
      path: entry.room ? 'room' : 'callback',
      callId: entry.input.callId,
      turnId: entry.input.turnId,
      confirmationId: entry.confirmationId,
      attempt: entry.attempt,
      outcome: entry.outcome,
      checked: entry.checked,
      checkable: entry.checkOutcome !== undefined,
      can: actionsOf(entry),
    });
  };

  /** Apply an event through the table; `false` (and no change) when the table does not allow it. */
  const fire = (entry: Entry, event: ConfirmationEvent): boolean => {
    const next = nextConfirmationStatus(entry.status, event);
    if (next === undefined) return false;
    entry.status = next;
    if (next === 'reviewing') entry.shown = true;
    refresh(entry);
    return true;
  };

  const remove = (entry: Entry): void => {
    live.delete(entry.id);
    const at = queue.indexOf(entry);
    if (at >= 0) queue.splice(at, 1);
    if (current === entry) current = null;
    entry.detachSignal();
  };

  /** DESIGN: "Several pending approvals queue; the dialog shows one at a time." */
  const advance = (): void => {
    while (current === null && queue.length > 0) {
      const next = queue.shift() as Entry;
      current = next;
      if (next.status === 'idle' && next.fingerprint !== null) fire(next, 'review');
    }
  };

  /** After `fire` into an outcome state: record it, publish, tell the callbacks. */
  const settle = (entry: Entry, outcome: ConfirmationOutcome): void => {
    entry.outcome = Object.freeze(outcome);
    refresh(entry);
    last = Object.freeze({ requestId: entry.id, toolName: entry.toolName, outcome: entry.outcome });
    const hold = entry.shown && HELD.has(entry.status);
    if (!hold) {
      remove(entry);
      advance();
    }
    publish();
    const view = entry.view;
    if (outcome.status === 'denied' && entry.input.onDeny) {
      const onDeny = entry.input.onDeny;
      safely(() => onDeny(outcome.reason, view));
    }
    if (entry.input.onResult) {
      const onResult = entry.input.onResult;
      safely(() => onResult(entry.outcome as ConfirmationOutcome, view));
    }
    if (options.onResult) {
      const onResult = options.onResult;
      safely(() => onResult(entry.outcome as ConfirmationOutcome, view));
    }
    if (!hold) entry.resolve(entry.outcome);
  };

  const targetOf = (target: ConfirmationTarget | undefined): Entry | null => {
    const id = typeof target === 'object' && target !== null ? target.requestId : undefined;
    if (id === undefined) return current;
    return current !== null && current.id === id ? current : null;
  };

  const invoke = async (entry: Entry, confirmationId: string | null): Promise<void> => {
    const attempt = entry.attempt;
    let output: unknown;
    try {
      if (entry.room) {
        // seed 002: pass the confirmation id "with those same arguments"; without one, call
        // with two arguments so the room sees no confirmation id at all.
        output =
          confirmationId === null
            ? await entry.room.invokeTool(entry.toolName, entry.snapshot)
            : await entry.room.invokeTool(entry.toolName, entry.snapshot, confirmationId);
      } else {
        const onApprove = entry.onApprove as NonNullable<Entry['onApprove']>;
        const context: ApprovalContext = Object.freeze({
          requestId: entry.id,
          toolName: entry.toolName,
          fingerprint: entry.fingerprint as Fingerprint,
          descriptor: entry.descriptor,
          attempt,
          ...(entry.input.callId === undefined ? {} : { callId: entry.input.callId }),
          ...(entry.input.turnId === undefined ? {} : { turnId: entry.input.turnId }),
        });
        output = await onApprove(entry.snapshot, context);
      }
    } catch (error) {
      if (entry.attempt !== attempt || entry.status !== 'invoking') return;
      const reason = reasonOf(error, 'the call failed');
      if (classifyRoomError(error) === 'unknown' && entry.descriptor.effect === 'write') {
        // DESIGN: "Only an unknown outcome of a write is uncertain: no automatic retry."
        fire(entry, 'lose');
        settle(entry, {
          status: 'uncertain',
          reason: `No answer came back (${reason}): the call may or may not have taken effect. Check before trying again.`,
        });
      } else {
        // A definite failure is `failed`; so is an unknown outcome of a read, which may be retried plainly.
        entry.retryable = entry.descriptor.effect === 'read';
        fire(entry, 'fail');
        settle(entry, { status: 'failed', reason });
      }
      return;
    }
    if (entry.attempt !== attempt || entry.status !== 'invoking') return;
    fire(entry, 'succeed');
    // DESIGN: "the result shown is invokeTool's own response", never a trace.
    settle(entry, {
      status: 'done',
      output,
      fingerprint: (entry.fingerprint as Fingerprint).hex,
      confirmationId,
    });
  };

  const confirmThenInvoke = async (entry: Entry): Promise<void> => {
    const attempt = entry.attempt;
    const room = entry.room as ToolRoom;
    let confirmationId: unknown;
    try {
      // DESIGN: "pass that same snapshot to confirmTool and then, with the returned id, to invokeTool".
      confirmationId = await room.confirmTool(entry.toolName, entry.snapshot);
    } catch (error) {
      if (entry.attempt !== attempt || entry.status !== 'confirming') return;
      // DESIGN: "Permission errors from confirmTool end in a clear message and no invoke." Any
      // rejection does, a lost answer too: without a confirmation id there is nothing to invoke
      // with, so nothing ran (the room's unused confirmation is never consumed).
      fire(entry, 'refuse');
      settle(entry, { status: 'refused', reason: `"${entry.toolName}" was not confirmed by the room, so nothing ran: ${reasonOf(error, 'no reason given')}` });
      return;
    }
    if (entry.attempt !== attempt || entry.status !== 'confirming') return;
    if (typeof confirmationId !== 'string' || confirmationId === '') {
      fire(entry, 'refuse');
      settle(entry, { status: 'refused', reason: `The room gave no confirmation id for "${entry.toolName}"` });
      return;
    }
    entry.confirmationId = confirmationId;
    fire(entry, 'confirmed');
    publish();
    await invoke(entry, confirmationId);
  };

  const start = (entry: Entry, event: 'confirm' | 'invoke'): void => {
    fire(entry, event);
    publish();
    if (event === 'confirm') void confirmThenInvoke(entry);
    else void invoke(entry, null);
  };

  const withdraw = (entry: Entry, reason: unknown): boolean => {
    // After approval nothing cancels an invoke in flight: `confirming` and later states have no `withdraw`.
    if (!fire(entry, 'withdraw')) return false;
    remove(entry);
    advance();
    publish();
    entry.reject(reason);
    return true;
  };

  const takeIn = (input: ConfirmationRequest): Promise<ConfirmationOutcome> => {
    if (typeof input !== 'object' || input === null) throw new TypeError('request() needs a request object');
    if (typeof input.toolName !== 'string' || input.toolName === '') {
      throw new TypeError('request() needs a toolName (a non-empty string)');
    }
    let room: ToolRoom | undefined;
    let onApprove: Entry['onApprove'];
    if (input.onApprove !== undefined) {
      if (typeof input.onApprove !== 'function') throw new TypeError('onApprove must be a function');
      if (input.room !== undefined) throw new TypeError('Give a request either a room or onApprove, not both');
      onApprove = input.onApprove;
    } else {
      room = input.room ?? options.room;
      if (room === undefined) {
        throw new TypeError(`The request for "${input.toolName}" has no room (on it or on the controller) and no onApprove`);
      }
    }
    const signal = input.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);

    const descriptor = resolveToolDescriptor(input.descriptor);
    // DESIGN: "Snapshot the arguments once, deep-freeze them" and refuse what is not JSON
    // before review. Taken now, so that nothing the caller does to its object later reaches
    // the screen, the fingerprint, confirmTool or invokeTool.
    const snapshot = snapshotJson(input.arguments);
    let refusal: string | undefined;
    let canonical = '';
    if (!snapshot.ok) {
      refusal = `The arguments are not JSON: ${snapshot.reason}`;
    } else {
      try {
        canonical = canonicalJson(snapshot.value);
      } catch (error) {
        refusal = `The arguments cannot be fingerprinted: ${reasonOf(error)}`;
      }
    }

    let resolve!: Entry['resolve'];
    let reject!: Entry['reject'];
    const promise = new Promise<ConfirmationOutcome>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry: Entry = {
      id: `confirmation-${++counter}`,
      input,
      toolName: input.toolName,
      snapshot: snapshot.ok ? snapshot.value : null,
      canonical,
      descriptor,
      room,
      onApprove,
      checkOutcome: input.checkOutcome ?? options.checkOutcome,
      direct: !descriptor.requiresConfirmation,
      status: 'idle',
      fingerprint: null,
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
    };
    refresh(entry);

    if (refusal !== undefined) {
      fire(entry, 'refuse');
      settle(entry, { status: 'refused', reason: refusal });
      return promise;
    }

    live.set(entry.id, entry);
    if (signal) {
      const onAbort = (): void => {
        withdraw(entry, signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
    // DESIGN: a descriptor that needs no confirmation "is invoked directly, without an id and
    // without the dialog": it never enters the queue.
    if (!entry.direct) queue.push(entry);
    advance();
    publish();

    fingerprintCanonical(canonical, fingerprintOptions).then(
      (fingerprint) => {
        if (entry.status !== 'idle') return; // denied or withdrawn meanwhile
        entry.fingerprint = fingerprint;
        refresh(entry);
        if (entry.direct) {
          start(entry, 'invoke');
          return;
        }
        if (entry === current) fire(entry, 'review');
        publish();
      },
      (error: unknown) => {
        if (entry.status !== 'idle') return;
        fire(entry, 'refuse');
        settle(entry, { status: 'refused', reason: reasonOf(error, 'the arguments could not be fingerprinted') });
      },
    );
    return promise;
  };

  return {
    request: takeIn,

    approve(target) {
      const entry = targetOf(target);
      // Idempotent by the table: only `reviewing` accepts it, and the first call leaves
      // `reviewing` synchronously, before any await. A second click, a key repeat or a spoken
      // "yes" at the same moment finds `confirming` and changes nothing.
      if (entry === null || entry.status !== 'reviewing') return false;
      start(entry, entry.room ? 'confirm' : 'invoke');
      return true;
    },

    deny(reason, target) {
      const id = typeof target === 'object' && target !== null ? target.requestId : undefined;
      const entry = id === undefined ? current : (live.get(id) ?? null);
      if (entry === null || entry.direct) return false;
      // `onClick={deny}` would pass an event as the reason: keep only strings.
      const why = typeof reason === 'string' ? reason : undefined;
      if (!fire(entry, 'deny')) return false;
      settle(entry, why === undefined ? { status: 'denied' } : { status: 'denied', reason: why });
      return true;
    },

    check(target) {
      const entry = targetOf(target);
      if (entry === null || entry.status !== 'uncertain' || entry.checkOutcome === undefined) return false;
      const checkOutcome = entry.checkOutcome;
      const reason = entry.outcome && 'reason' in entry.outcome ? (entry.outcome.reason ?? '') : '';
      const attempt = entry.attempt;
      entry.outcome = null;
      fire(entry, 'check');
      publish();
      const context: OutcomeCheckContext = Object.freeze({
        requestId: entry.id,
        toolName: entry.toolName,
        arguments: entry.snapshot,
        fingerprint: (entry.fingerprint as Fingerprint).hex,
        confirmationId: entry.confirmationId,
        descriptor: entry.descriptor,
        reason,
        ...(entry.input.callId === undefined ? {} : { callId: entry.input.callId }),
      });
      void (async () => {
        let result: OutcomeCheckResult;
        try {
          result = await checkOutcome(context);
        } catch (error) {
          result = { status: 'unknown', reason: reasonOf(error) };
        }
        if (entry.attempt !== attempt || entry.status !== 'checking') return;
        entry.checked = true;
        const status = typeof result === 'object' && result !== null ? result.status : undefined;
        const detail = typeof result === 'object' && result !== null && 'reason' in result && typeof result.reason === 'string' ? result.reason : undefined;
        if (status === 'done') {
          fire(entry, 'succeed');
          settle(entry, {
            status: 'done',
            output: (result as { output?: unknown }).output,
            fingerprint: (entry.fingerprint as Fingerprint).hex,
            confirmationId: entry.confirmationId,
          });
        } else if (status === 'not-done') {
          // Known not to have happened: a deliberate retry (with a new confirmation) is safe.
          entry.retryable = true;
          fire(entry, 'fail');
          settle(entry, {
            status: 'failed',
            reason: detail ?? 'The check found that the call did not take effect. It can be tried again with a new confirmation.',
          });
        } else {
          fire(entry, 'lose');
          settle(entry, {
            status: 'uncertain',
            reason: `The check could not tell whether the call took effect${detail === undefined ? '' : `: ${detail}`}.`,
          });
        }
      })();
      return true;
    },

    retry(target) {
      const entry = targetOf(target);
      if (entry === null || !actionsOf(entry).retry) return false;
      // DESIGN: "a deliberate retry with a new confirmation": the old id is never reused.
      entry.attempt += 1;
      entry.confirmationId = null;
      entry.outcome = null;
      entry.checked = false;
      entry.retryable = false;
      start(entry, entry.room ? 'confirm' : 'invoke');
      return true;
    },

    dismiss(target) {
      const entry = targetOf(target);
      if (entry === null || !actionsOf(entry).dismiss || entry.outcome === null) return false;
      const outcome = entry.outcome;
      remove(entry);
      advance();
      publish();
      entry.resolve(outcome);
      return true;
    },

    withdrawAll(reason) {
      let count = 0;
      const error = new DOMException(reason ?? 'The confirmation request was withdrawn', 'AbortError');
      for (const entry of [...live.values()]) if (withdraw(entry, error)) count++;
      return count;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    getState: () => state,
    getInitialState: () => initialState,
  };
}
