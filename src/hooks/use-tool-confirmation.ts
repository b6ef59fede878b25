import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type Dispatch, type SetStateAction } from 'react';
import { useIsomorphicLayoutEffect } from './use-isomorphic-layout-effect';
import { createConfirmationController } from '../core/approval/confirmation-controller';
import type { ConfirmationStatus } from '../core/approval/confirmation-machine';
import type {
  ApprovalContext,
  CheckOutcome,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationState,
  ConfirmationTarget,
  ConfirmationEditing,
  ConfirmationView,
} from '../core/approval/confirmation-types';
import type { ConfirmationController, EditResult } from '../core/approval/confirmation-controller-types';
import type { ErrorReporter } from '../core/external-store';
import type { JsonValue } from '../core/json/json-value';
import type { ToolRoom } from '../core/session/room';
import { resolveToolDescriptor, type ToolDescriptor } from '../core/approval/tool-descriptor';
import { useConfirmationController } from '../provider/context';

/**
 * The actions of a confirmation, each bound to one request (the one shown when it was rendered).
 *
 * @example
 * const { approve, deny }: ToolConfirmationActions = useToolConfirmation();
 */
export interface ToolConfirmationActions {
  /** Approve the request; `false` when it is not being reviewed any more (a late or second "yes" changes nothing). */
  approve: () => boolean;
  /** Deny the request, with an optional reason; calls nothing in the room. Non-string arguments (click events) are ignored. */
  deny: (reason?: string) => boolean;
  /** Run the application's `checkOutcome` after an unknown outcome. */
  check: () => boolean;
  /** The deliberate retry, when the request allows it (a new confirmation on the room path). */
  retry: () => boolean;
  /** Close a request held on screen (`refused`, `failed`, `uncertain`, `expired`) and show the next. */
  dismiss: () => boolean;
  /** Open the editor of an editable request under review (nothing can be approved while it is open). */
  edit: () => boolean;
  /** Leave the editor without changing the arguments. */
  cancelEdit: () => boolean;
  /** Submit edited arguments: checked again; valid, they become the snapshot (with a fingerprint of their own) to review and approve; invalid, the editor stays open and the result says why. */
  submitEdit: (draft: unknown) => Promise<EditResult>;
  /** Approve it and allow its tool for the rest of the session (`false` where `can.allowForSession` is, e.g. a high-risk tool). */
  allowForSession: () => boolean;
  /** Deny it and deny its tool for the rest of the session, with an optional reason. */
  denyForSession: (reason?: string) => boolean;
  /** Answer in the tool's place: `output` (JSON) is the call's result and nothing runs. */
  respond: (output: unknown) => boolean;
  /** Withdraw the request: not a rejection; nothing runs. */
  cancel: (reason?: string) => boolean;
}

/**
 * What {@link useToolConfirmation} returns: the controller's snapshot and actions bound to the shown request.
 *
 * @example
 * const { status, current, waiting }: UseToolConfirmationResult = useToolConfirmation();
 */
export interface UseToolConfirmationResult extends ToolConfirmationActions {
  /** The shown request's status, or `idle` when none is shown. */
  status: ConfirmationStatus;
  /** The request shown (one at a time), or `null`. */
  current: ConfirmationView | null;
  /** How many requests wait behind the shown one. */
  waiting: number;
  /** The requests waiting behind it, in order. */
  queue: readonly ConfirmationView[];
  /** The latest outcome of any request. */
  last: ConfirmationState['last'];
  /** Queue a request (see `ConfirmationController.request`). */
  request: ConfirmationController['request'];
  /** The controller read, for anything the hook does not cover. */
  controller: ConfirmationController;
}

// Never an id the controller gives (`confirmation-N`): actions rendered while nothing was shown target nothing.
const NOTHING: ConfirmationTarget = Object.freeze({ requestId: '' });

/** Actions bound to `requestId` (or to nothing). */
function useBoundActions(controller: ConfirmationController, requestId: string | undefined): ToolConfirmationActions {
  return useMemo(() => {
    const target: ConfirmationTarget = requestId === undefined ? NOTHING : Object.freeze({ requestId });
    return {
      approve: () => controller.approve(target),
      deny: (reason?: string) => controller.deny(typeof reason === 'string' ? reason : undefined, target),
      check: () => controller.check(target),
      retry: () => controller.retry(target),
      dismiss: () => controller.dismiss(target),
      edit: () => controller.edit(target),
      cancelEdit: () => controller.cancelEdit(target),
      submitEdit: (draft: unknown) => controller.submitEdit(draft, target),
      allowForSession: () => controller.allowForSession(target),
      denyForSession: (reason?: string) => controller.denyForSession(typeof reason === 'string' ? reason : undefined, target),
      respond: (output: unknown) => controller.respond(output, target),
      cancel: (reason?: string) => controller.cancel(typeof reason === 'string' ? reason : undefined, target),
    };
  }, [controller, requestId]);
}

/**
 * The confirmation queue, headless: the request shown (one at a time), how many wait, the latest
 * outcome, and actions bound to the shown request's id, so that a "yes" that arrives after that
 * request ended never approves the next one. Everything `<ConfirmToolDialog />` does is built on
 * this; build your own dialog, card or voice flow on it alone. `approve()` and `deny()` may be
 * called from anywhere (a spoken "yes"): one approval gives at most one `confirmTool` and one
 * `invokeTool`, whatever else approves at the same moment.
 *
 * Reads the provider's controller unless one is given; the initial state is the server snapshot.
 *
 * @example
 * function MyConfirm() {
 *   const { current, waiting, approve, deny } = useToolConfirmation();
 *   if (!current) return null;
 *   return (
 *     <section aria-label={current.title}>
 *       <pre>{JSON.stringify(current.arguments, null, 2)}</pre>
 *       <code>{current.fingerprint?.short}</code>
 *       <button onClick={deny} disabled={!current.can.deny}>Deny</button>
 *       <button onClick={approve} disabled={!current.can.approve}>Approve</button>
 *       {waiting > 0 && <p>{waiting} more waiting</p>}
 *     </section>
 *   );
 * }
 */
export function useToolConfirmation(controller?: ConfirmationController): UseToolConfirmationResult {
  const confirmations = useConfirmationController(controller);
  const state = useSyncExternalStore(confirmations.subscribe, confirmations.getState, confirmations.getInitialState);
  const actions = useBoundActions(confirmations, state.current?.id);
  return {
    status: state.status,
    current: state.current,
    waiting: state.waiting,
    queue: state.queue,
    last: state.last,
    ...actions,
    request: confirmations.request,
    controller: confirmations,
  };
}

/**
 * Options of {@link useToolConfirmationRequest}: one proposed call, requested while `open` is true.
 *
 * @example
 * const options: UseToolConfirmationRequestOptions = { open, toolName: 'transfer', arguments: args, room };
 */
export interface UseToolConfirmationRequestOptions {
  /** While true, the call is requested (once per opening). */
  open: boolean;
  toolName: string;
  /** Snapshotted and deep-frozen when `open` turns true; later changes (or a new object) change nothing. */
  arguments: unknown;
  /** The room path: approve runs `confirmTool` then `invokeTool` here. */
  room?: ToolRoom | undefined;
  /** Missing: a write that needs confirmation. `requiresConfirmation: false` invokes directly, without review. */
  descriptor?: Partial<ToolDescriptor> | null | undefined;
  /** The path without a room: approve calls this with the frozen snapshot; its return value is the output. */
  onApprove?: ((args: JsonValue, context: ApprovalContext) => unknown) | undefined;
  /** Told of a deny, with its reason. */
  onDeny?: ((reason: string | undefined) => void) | undefined;
  /** Told of every outcome (an `uncertain` may later become `done`), with the request it belongs to. */
  onResult?: ((outcome: ConfirmationOutcome, view: ConfirmationView) => void) | undefined;
  /** The application's check, offered after an unknown outcome of a write. */
  checkOutcome?: CheckOutcome | undefined;
  /** A person may edit the arguments before approving (`true`: as JSON text; with a `schema`, as a form of its fields). */
  editable?: boolean | ConfirmationEditing | undefined;
  /** When the request ends `expired` if nobody decided, in ms since the epoch (by the controller's clock). */
  expiresAt?: number | undefined;
  /**
   * The request could not be made (no room and no `onApprove`, no tool name): shown as `refused`,
   * and told here as `(reason, the error thrown, 'invalid-request')`.
   */
  onError?: ErrorReporter | undefined;
  /** A shared controller; by default one of its own, so the request does not queue behind others. */
  controller?: ConfirmationController | undefined;
}

/**
 * What {@link useToolConfirmationRequest} returns: the state of this one request and its actions.
 *
 * @example
 * const { status, view, outcome, approve }: UseToolConfirmationRequestResult = useToolConfirmationRequest(options);
 */
export interface UseToolConfirmationRequestResult extends ToolConfirmationActions {
  /** `idle` before the request exists; its outcome status once it has left the controller. */
  status: ConfirmationStatus;
  /** The request (kept after it left the controller, so its arguments and fingerprint stay readable). */
  view: ConfirmationView | null;
  /** Its latest outcome. */
  outcome: ConfirmationOutcome | null;
  /** How many requests are shown or wait before it, in a shared controller. */
  ahead: number;
  /** `true` when the descriptor needs no confirmation: invoked directly, nothing to show. */
  direct: boolean;
  controller: ConfirmationController;
}

interface Tracked {
  id: string | null;
  view: ConfirmationView | null;
  outcome: ConfirmationOutcome | null;
  direct: boolean;
}

const NOT_REQUESTED: Tracked = { id: null, view: null, outcome: null, direct: false };

/** Where `id` stands in `state`: shown, waiting (with how many before it), or gone. */
function locate(state: ConfirmationState, id: string | null): { view: ConfirmationView | null; ahead: number } {
  if (id === null) return { view: null, ahead: 0 };
  if (state.current?.id === id) return { view: state.current, ahead: 0 };
  const at = state.queue.findIndex((view) => view.id === id);
  return at < 0 ? { view: null, ahead: 0 } : { view: state.queue[at] as ConfirmationView, ahead: at + (state.current ? 1 : 0) };
}

/**
 * One proposed call, confirmed while `open` is true: the headless half of
 * `<ConfirmToolDialog open … />`. When `open` turns true the call is requested once (the
 * arguments are snapshotted then; a new `arguments` object on a later render changes nothing);
 * when it turns false, or the component unmounts, a request not yet approved is withdrawn (this
 * also covers StrictMode's second effect run). After approval nothing cancels it: its outcome
 * still reaches `onResult`.
 *
 * @example
 * const confirm = useToolConfirmationRequest({ open, toolName: 'transfer', arguments: { to: 'bob', amount: 5 }, room, onResult });
 * <button onClick={confirm.approve} disabled={!confirm.view?.can.approve}>Approve</button>
 */
export function useToolConfirmationRequest(options: UseToolConfirmationRequestOptions): UseToolConfirmationRequestResult {
  const [own] = useState(() => createConfirmationController());
  const controller = options.controller ?? own;
  const latest = useRef(options);
  useIsomorphicLayoutEffect(() => {
    latest.current = options;
  });
  const [tracked, setTracked] = useState<Tracked>(NOT_REQUESTED);
  const state = useSyncExternalStore(controller.subscribe, controller.getState, controller.getInitialState);
  const open = options.open;

  // A refusal told once per opening: StrictMode's second run of the effect (a dialog mounted open,
  // as `<ConfirmToolDialog>` is once it has loaded) is the same opening, not a second request.
  const refusalTold = useRef(false);
  useEffect(() => {
    if (!open) refusalTold.current = false;
  }, [open]);
  useEffect(() => (open ? requestOnce(controller, latest, setTracked, refusalTold) : undefined), [open, controller]);

  const { view: live, ahead } = locate(state, tracked.id);
  const view = live ?? tracked.view;
  const outcome = live ? live.outcome : tracked.outcome;
  const status: ConfirmationStatus = live ? live.status : (tracked.outcome?.status ?? (tracked.view ? tracked.view.status : 'idle'));
  const actions = useBoundActions(controller, tracked.id ?? undefined);
  return { status, view, outcome, ahead, direct: tracked.direct, ...actions, controller };
}

/**
 * Request the call once, for one opening, and track it; returns the cleanup that withdraws it
 * unless it was approved (the table refuses a withdrawal after approval).
 */
function requestOnce(
  controller: ConfirmationController,
  latest: { readonly current: UseToolConfirmationRequestOptions },
  setTracked: Dispatch<SetStateAction<Tracked>>,
  refusalTold: { current: boolean },
): () => void {
  const input = latest.current;
  const signal = new AbortController();
  let active = true;
  let id: string | null = null;
  const prior = controller.getState();
  const before = new Set([prior.current, ...prior.queue].flatMap((view) => (view === null ? [] : [view.id])));
  const direct = !resolveToolDescriptor(input.descriptor).requiresConfirmation;
  setTracked({ id: null, view: null, outcome: null, direct });
  const request = {
    toolName: input.toolName,
    arguments: input.arguments,
    descriptor: input.descriptor ?? null,
    signal: signal.signal,
    ...(input.checkOutcome === undefined ? {} : { checkOutcome: input.checkOutcome }),
    ...(input.editable === undefined ? {} : { editable: input.editable }),
    ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
    // The tool the page asks about now: an approval after it named another tool is refused (approval-mismatch).
    currentCall: () => ({ toolName: latest.current.toolName }),
    onDeny: (reason) => latest.current.onDeny?.(reason),
    onResult: (outcome, view) => {
      if (active) setTracked({ id: view.id, view, outcome, direct });
      // Closed while it ran: nobody will dismiss it here, so it must not hold a shared queue
      // (a no-op unless the table holds this outcome on screen).
      else controller.dismiss({ requestId: view.id });
      // An outcome reached within `request` itself (refused before review) is the same each time
      // the effect runs for one opening: told once.
      if (synchronous && refusalTold.current) return;
      if (synchronous) refusalTold.current = true;
      latest.current.onResult?.(outcome, view);
    },
    ...(input.onApprove === undefined
      ? input.room === undefined
        ? {}
        : { room: input.room }
      : { onApprove: (args: JsonValue, context: ApprovalContext) => (latest.current.onApprove ?? input.onApprove)?.(args, context) }),
  } as ConfirmationRequest;
  let settled: Promise<ConfirmationOutcome>;
  let synchronous = true;
  try {
    settled = controller.request(request);
    synchronous = false;
  } catch (error) {
    synchronous = false;
    // No room and no onApprove (or no tool name): say so in the dialog instead of throwing in an effect.
    const reason = error instanceof Error ? error.message : String(error);
    setTracked({ id: null, view: null, outcome: { status: 'refused', reason }, direct: false });
    if (!refusalTold.current) latest.current.onError?.(reason, error, 'invalid-request');
    refusalTold.current = true;
    return () => {};
  }
  // A withdrawal rejects the promise; the outcome arrives through onResult.
  settled.catch(() => {});
  if (!direct) {
    const now = controller.getState();
    const mine = [now.current, ...now.queue].find((view) => view !== null && !before.has(view.id));
    if (mine) {
      id = mine.id;
      setTracked((previous) => (previous.outcome !== null ? previous : { id: mine.id, view: mine, outcome: null, direct }));
    }
  }
  return () => {
    active = false;
    signal.abort(new DOMException('The confirmation was closed', 'AbortError'));
    if (id !== null) controller.dismiss({ requestId: id });
  };
}
