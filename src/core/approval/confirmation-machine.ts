/**
 * The confirmation flow as a transition table (docs/architecture.md, "Conventions"), and everything the kit
 * reads from it: which statuses are final, which hold an outcome, which wait for a person,
 * which have a call in flight. Those sets are derived here from the table and from what each
 * event means, never listed again elsewhere: a new state or event (an expiry, say) changes them
 * by changing the table.
 *
 * docs/protocol.md, "Confirmation" is the rulebook; the controller that runs requests through the table is
 * in `confirmation-controller.ts`.
 */

/**
 * The states of one request, in the order a request usually meets them.
 *
 * @example
 * CONFIRMATION_STATUSES.includes(view.status) // true
 * - `idle`: taken in (arguments snapshotted and frozen), waiting for its fingerprint or its turn;
 * - `reviewing`: shown to a person, who may approve or deny;
 * - `editing`: a person edits the arguments of an editable request (nothing can be approved meanwhile);
 * - `revising`: the edited arguments are being validated; valid, they become the snapshot and are
 *   fingerprinted afresh (back through `idle`); invalid, the person stays in the editor;
 * - `confirming`: `room.confirmTool` in flight;
 * - `invoking`: `room.invokeTool` (or `onApprove`) in flight; nothing cancels it;
 * - `checking`: the application's `checkOutcome` in flight, after an unknown outcome;
 * - `done`, `denied`, `refused`, `failed`, `uncertain`, `expired`: the outcomes of the union;
 * - `responded`: a person answered in the tool's place (their answer is the call's output; nothing ran);
 * - `cancelled`: a person withdrew the request: not a rejection, and nothing ran;
 * - `withdrawn`: the requester took the request back before it was approved (its signal aborted).
 */
export const CONFIRMATION_STATUSES = [
  'idle',
  'reviewing',
  'editing',
  'revising',
  'confirming',
  'invoking',
  'checking',
  'done',
  'denied',
  'refused',
  'failed',
  'uncertain',
  'expired',
  'responded',
  'cancelled',
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
 * - `edit`: a person opens the editor of an editable request; `keep`: they leave it unchanged;
 * - `submit`: they submit edited arguments, which are validated; `revise`: they were valid and are
 *   now the snapshot; `reject`: they were not (the editor shows why);
 * - `confirm`: ask the room for a (new) confirmation id;
 * - `invoke`: invoke without a new confirmation (a descriptor that needs none, the path
 *   without a room, or a plain retry of such a call);
 * - `confirmed`: the room gave a confirmation id;
 * - `succeed` / `fail` / `lose`: the call (or the check) answered, answered no, or gave no answer
 *   for a write;
 * - `check`: run the application's `checkOutcome`;
 * - `refuse`: the request cannot go on (arguments not JSON, no Web Crypto, confirmation refused,
 *   or, when approved, its call names another tool than the one shown: `approval-mismatch`);
 * - `deny`, `withdraw`: a person said no; the requester took it back;
 * - `expire`: its time (`expiresAt`) ran out before anyone decided;
 * - `defer`: another request was brought to the dialog (`show`): the one under review waits its
 *   turn again, as if never shown;
 * - `respond`: a person answers in the tool's place (docs/protocol.md "Decisions");
 * - `cancel`: a person withdraws the request (not a rejection).
 */
export const CONFIRMATION_EVENTS = [
  'review',
  'edit',
  'keep',
  'submit',
  'revise',
  'reject',
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
  'expire',
  'defer',
  'respond',
  'cancel',
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
 * `state -> event -> state` (docs/architecture.md, "Conventions"). A pair that is not listed is not allowed and
 * changes nothing: that is what makes `approve()` idempotent (`confirming` accepts no second
 * `confirm`), what keeps a deny or a withdrawal from cancelling an approved call
 * (`confirming` and `invoking` accept neither: "after approval nothing cancels an invoke in
 * flight"), what keeps an edit from being approved before it was validated and fingerprinted
 * (`editing` and `revising` accept no `confirm` or `invoke`), and what makes a decision after an
 * expiry change nothing (`expired` is final).
 *
 * Guards the table cannot express, kept by the controller in one place (`permits` in
 * `confirmation-request.ts`):
 * - `idle --confirm|invoke-->` only for a request that was never shown but answered all the same:
 *   by a standing grant that allows its tool (never a high-risk one), or by "Approve all" in a
 *   view that listed it with its fingerprint (never one that must be reviewed alone); `idle --invoke-->` also for a descriptor with
 *   `requiresConfirmation: false` (never reviewed);
 * - `reviewing --confirm-->` on the room path, `reviewing --invoke-->` on the path without a room;
 * - `reviewing --edit-->` only for an editable request;
 * - `uncertain --confirm|invoke-->` (the deliberate retry) only after the application's check
 *   when it offers one (or for a tool whose retry is safe), and always through a new
 *   confirmation on the room path;
 * - `failed --confirm|invoke-->` (retry) only for a read tool, or a write whose check found that it
 *   did not take effect.
 *
 * | state      | review    | edit    | keep      | submit   | revise | reject  | confirm    | invoke   | confirmed | succeed | fail   | lose      | check    | refuse  | deny   | withdraw  | expire  | defer | respond   | cancel    |
 * |------------|-----------|---------|-----------|----------|--------|---------|------------|----------|-----------|---------|--------|-----------|----------|---------|--------|-----------|---------|-------|-----------|-----------|
 * | idle       | reviewing |         |           |          |        |         | confirming | invoking |           |         |        |           |          | refused | denied | withdrawn | expired |       |           | cancelled |
 * | reviewing  |           | editing |           |          |        |         | confirming | invoking |           |         |        |           |          | refused | denied | withdrawn | expired | idle  | responded | cancelled |
 * | editing    |           |         | reviewing | revising |        |         |            |          |           |         |        |           |          |         | denied | withdrawn | expired |       | responded | cancelled |
 * | revising   |           |         |           |          | idle   | editing |            |          |           |         |        |           |          |         | denied | withdrawn | expired |       |           | cancelled |
 * | confirming |           |         |           |          |        |         |            |          | invoking  |         |        |           |          | refused |        |           |         |       |           |           |
 * | invoking   |           |         |           |          |        |         |            |          |           | done    | failed | uncertain |          |         |        |           |         |       |           |           |
 * | checking   |           |         |           |          |        |         |            |          |           | done    | failed | uncertain |          |         |        |           |         |       |           |           |
 * | uncertain  |           |         |           |          |        |         | confirming | invoking |           |         |        |           | checking |         |        |           |         |       |           |           |
 * | failed     |           |         |           |          |        |         | confirming | invoking |           |         |        |           |          |         |        |           |         |       |           |           |
 * | done, denied, refused, expired, responded, cancelled, withdrawn: final                                                                                                                                         |
 *
 * @example
 * CONFIRMATION_TRANSITIONS.reviewing.confirm // 'confirming'
 */
export const CONFIRMATION_TRANSITIONS = {
  idle: { review: 'reviewing', confirm: 'confirming', invoke: 'invoking', refuse: 'refused', deny: 'denied', withdraw: 'withdrawn', expire: 'expired', cancel: 'cancelled' },
  reviewing: { edit: 'editing', confirm: 'confirming', invoke: 'invoking', refuse: 'refused', deny: 'denied', withdraw: 'withdrawn', expire: 'expired', defer: 'idle', respond: 'responded', cancel: 'cancelled' },
  editing: { keep: 'reviewing', submit: 'revising', deny: 'denied', withdraw: 'withdrawn', expire: 'expired', respond: 'responded', cancel: 'cancelled' },
  revising: { revise: 'idle', reject: 'editing', deny: 'denied', withdraw: 'withdrawn', expire: 'expired', cancel: 'cancelled' },
  confirming: { confirmed: 'invoking', refuse: 'refused' },
  invoking: { succeed: 'done', fail: 'failed', lose: 'uncertain' },
  checking: { succeed: 'done', fail: 'failed', lose: 'uncertain' },
  uncertain: { check: 'checking', confirm: 'confirming', invoke: 'invoking' },
  failed: { confirm: 'confirming', invoke: 'invoking' },
  done: {},
  denied: {},
  refused: {},
  expired: {},
  responded: {},
  cancelled: {},
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

/* ---------------------------------------------------------- what events mean */

/**
 * What each event is, the one fact the table does not say by itself:
 * - `step`: the flow moves on (`review`, `confirmed`, and the steps of an edit);
 * - `decision`: a person (or the flow, for a call that needs no confirmation) starts something:
 *   an approval, a retry, a check;
 * - `success`, `problem`, `decline`: the request reaches an outcome of the union (docs/protocol.md, "Confirmation"): it worked;
 *   it was refused, failed or its outcome is unknown (a person must read why); a person said no;
 * - `withdrawal`: the requester took it back (no outcome: its promise rejects).
 *
 * @example
 * CONFIRMATION_EVENT_ROLES.lose // 'problem'
 */
export const CONFIRMATION_EVENT_ROLES = {
  review: 'step',
  edit: 'step',
  keep: 'step',
  submit: 'step',
  revise: 'step',
  reject: 'step',
  confirm: 'decision',
  invoke: 'decision',
  confirmed: 'step',
  succeed: 'success',
  fail: 'problem',
  lose: 'problem',
  check: 'decision',
  refuse: 'problem',
  deny: 'decline',
  withdraw: 'withdrawal',
  // A person must read it: the request ended without an answer, and nothing ran.
  expire: 'problem',
  defer: 'step',
  // Both are a person's decision, reached while one may still say no: they end the request at once.
  respond: 'decline',
  cancel: 'decline',
} as const satisfies { readonly [E in ConfirmationEvent]: 'step' | 'decision' | 'success' | 'problem' | 'decline' | 'withdrawal' };

type Role = (typeof CONFIRMATION_EVENT_ROLES)[ConfirmationEvent];
type Row = readonly (readonly [ConfirmationEvent, ConfirmationStatus])[];

/** The events `status` accepts, with where each leads. */
export const rowOf = (status: ConfirmationStatus): Row => Object.entries(CONFIRMATION_TRANSITIONS[status]) as [ConfirmationEvent, ConfirmationStatus][];

/**
 * Groups of statuses, each derived from {@link CONFIRMATION_TRANSITIONS} and
 * {@link CONFIRMATION_EVENT_ROLES} (never listed by hand):
 * - `final`: no event leaves it (`done`, `denied`, `refused`, `expired`, `withdrawn`);
 * - `outcome`: it holds an outcome of the union (reached by a success, a problem or a decline);
 * - `held`: an outcome a person must read, shown until dismissed (reached by a problem:
 *   `refused`, `failed`, `uncertain`, `expired`);
 * - `awaitingDecision`: a person may still say no (`idle`, `reviewing`, `editing`, `revising`);
 * - `inFlight`: a call or check runs and only its answer moves it on: nothing cancels it
 *   (`confirming`, `invoking`, `checking`);
 * - `ended`: it holds an outcome or was withdrawn;
 * - `beforeEnd`: on the way from `idle` to the first end (`idle`, `reviewing`, `editing`, `revising`,
 *   `confirming`, `invoking`).
 */
export interface ConfirmationStatusSets {
  readonly final: ReadonlySet<ConfirmationStatus>;
  readonly outcome: ReadonlySet<ConfirmationStatus>;
  readonly held: ReadonlySet<ConfirmationStatus>;
  readonly awaitingDecision: ReadonlySet<ConfirmationStatus>;
  readonly inFlight: ReadonlySet<ConfirmationStatus>;
  readonly ended: ReadonlySet<ConfirmationStatus>;
  readonly beforeEnd: ReadonlySet<ConfirmationStatus>;
}

let sets: ConfirmationStatusSets | undefined;

/**
 * The {@link ConfirmationStatusSets}, derived from the table on first use (no work at import).
 *
 * @example
 * const busy = confirmationStatusSets().inFlight.has(view.status); // show a spinner, offer nothing
 */
export function confirmationStatusSets(): ConfirmationStatusSets {
  if (sets) return sets;
  const rows = CONFIRMATION_STATUSES.map((status) => [status, rowOf(status)] as const);
  const where = (test: (row: Row) => boolean) => new Set(rows.filter(([, row]) => test(row)).map(([status]) => status));
  const reached = (...roles: Role[]) =>
    new Set(rows.flatMap(([, row]) => row.filter(([event]) => roles.includes(CONFIRMATION_EVENT_ROLES[event])).map(([, next]) => next)));
  const ended = reached('success', 'problem', 'decline', 'withdrawal');
  const beforeEnd = new Set<ConfirmationStatus>(['idle']);
  // A Set visits what is added while it is walked: this is a breadth-first walk from `idle`.
  for (const status of beforeEnd) for (const [, next] of rowOf(status)) if (!ended.has(next)) beforeEnd.add(next);
  return (sets = Object.freeze({
    final: where((row) => row.length === 0),
    outcome: reached('success', 'problem', 'decline'),
    held: reached('problem'),
    awaitingDecision: where((row) => row.some(([event]) => CONFIRMATION_EVENT_ROLES[event] === 'decline')),
    inFlight: where((row) => row.length > 0 && row.every(([event]) => ['step', 'success', 'problem'].includes(CONFIRMATION_EVENT_ROLES[event]))),
    ended,
    beforeEnd,
  }));
}
