/**
 * `ConfirmToolDialogRoot`: the confirmation dialog's state, over `useToolConfirmation` (the
 * controller's queue) or `useToolConfirmationRequest` (one proposed call), given to its parts.
 * Like Radix's `Dialog.Root` it renders no element of its own.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { confirmationStatusSets, type ConfirmationStatus } from '../core/approval/confirmation-machine';
import type {
  ApprovalContext,
  CheckOutcome,
  ConfirmationEditing,
  ConfirmationOutcome,
  ConfirmationView,
} from '../core/approval/confirmation-types';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import type { JsonValue } from '../core/json/json-value';
import type { ToolRoom } from '../core/session/room';
import { resolveToolDescriptor, type ToolDescriptor } from '../core/approval/tool-descriptor';
import { defaultConfirmLabels, mergeConfirmLabels, type ConfirmToolLabelsOverride } from '../wording/confirm-labels';
import { useLabels } from '../wording/labels';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';
import { systemClock, type ToolgateClock } from '../hooks/use-now';
import { useToolConfirmation, useToolConfirmationRequest, type ToolConfirmationActions } from '../hooks/use-tool-confirmation';
import { useQueueCallbacks } from './confirm-queue-callbacks';
import { ConfirmToolDialogContext, type ConfirmToolDialogContextValue, type FocusTarget } from './confirm-dialog-context';
import type { ConfirmStep } from './confirm-step';

/**
 * Props of {@link ConfirmToolDialogRoot}. With `open` (or `defaultOpen`) given, it confirms that
 * one call (`toolName`, `arguments`, through `room` or `onApprove`); without either, it shows the
 * controller's queue (the provider's by default), one request at a time.
 *
 * @example
 * const props: ConfirmToolDialogRootProps = { open, onOpenChange: setOpen, toolName: 'transfer', arguments: args, room, onResult };
 */
export interface ConfirmToolDialogRootProps {
  /** Controlled mode: while true, `toolName` with `arguments` is requested (once per opening) and shown. */
  open?: boolean;
  /** Uncontrolled: open at first, and closed by the dialog itself after `done`, `denied` or Close. */
  defaultOpen?: boolean;
  /** Told `false` when the dialog is done: after `done` or `denied`, or when its Close button is pressed. */
  onOpenChange?: (open: boolean) => void;
  /** The tool to confirm (controlled mode). */
  toolName?: string;
  /** Its arguments: snapshotted and deep-frozen when `open` turns true; later changes, or a new object, change nothing. */
  arguments?: unknown;
  /** The room path: Approve runs `room.confirmTool` then `room.invokeTool` with the same snapshot. */
  room?: ToolRoom;
  /** Effect, risk, required action, confirmation requirement. Missing: a write that needs confirmation. `requiresConfirmation: false` invokes directly, without the dialog. */
  descriptor?: Partial<ToolDescriptor> | null;
  /** Every outcome, in order: `done`, `denied`, `refused`, `failed`, `uncertain` (see `ConfirmationOutcome`). It can fire more than once for one request: an `uncertain` outcome may be followed by the outcome of a check or a deliberate retry. In queue mode, every outcome the controller reaches. */
  onResult?: (outcome: ConfirmationOutcome) => void;
  /** The path without a room (app tools, the server's gate): called with the frozen snapshot on approval. */
  onApprove?: (args: JsonValue, context: ApprovalContext) => unknown;
  /** Told of a deny, with its reason (controlled mode). */
  onDeny?: (reason: string | undefined) => void;
  /** The application's check, offered after an unknown outcome of a write (controlled mode; the controller's otherwise). */
  checkOutcome?: CheckOutcome;
  /** A controller to use: in queue mode instead of the provider's; in controlled mode instead of a private one. */
  controller?: ConfirmationController;
  /** A person may edit the arguments before approving (controlled mode; in queue mode each request says): `true` as JSON text, or a form of `schema`. */
  editable?: boolean | ConfirmationEditing;
  /** When the request expires if nobody decided, in ms since the epoch (controlled mode; in queue mode each request says). */
  expiresAt?: number;
  /**
   * Offer "Allow for this session" and "Deny for this session" (never an allow for a high-risk tool,
   * one whose risk is not declared, or one confirmed every time). Default: in queue mode, whose
   * controller holds the session's grants; not for one call on a dialog's own controller.
   */
  grants?: boolean;
  /** The clock the time left before an expiry is shown by (the real one by default; give the controller's own). */
  clock?: ToolgateClock;
  /** A deliberate second step for high-risk requests: type the tool's name, or press and hold Approve. */
  confirmStep?: ConfirmStep;
  /** How long `confirmStep="hold"` must be held, in ms (default 1500). */
  holdMs?: number;
  /**
   * Offer a field for the reason of a deny ("Reason for the agent (optional)"), beside Deny while a
   * deny can be given. Never required; what is typed goes with Deny, "Deny for this session" and
   * Escape, and on to the model. Default `true`; `false` leaves it out.
   */
  denyWithReason?: boolean;
  /** Strings for this dialog, over `labels.confirm` of the nearest `ToolgateLabelsProvider`. */
  labels?: ConfirmToolLabelsOverride;
  /**
   * `true` (the default): the page behind is inert, focus is trapped, an overlay covers the page.
   * `false` shows the same dialog without them, so several can be seen at once (a gallery of its
   * states, a docs page). A proposal that a person must answer should stay modal. A click outside
   * does nothing either way; Escape goes to the dialog opened last.
   */
  modal?: boolean;
  children?: ReactNode;
}

/**
 * The root of the confirmation dialog's parts: it holds the request shown and its actions, and
 * the rules (Escape denies while reviewing, a click outside does nothing, nothing cancels an
 * invoke in flight, focus starts on Deny). Compose it with `ConfirmToolDialogPortal`,
 * `ConfirmToolDialogOverlay`, `ConfirmToolDialogContent` and the parts inside, or use
 * `<ConfirmToolDialog />`, which is this root with every part in place.
 *
 * @example
 * <ConfirmToolDialogRoot>
 *   <ConfirmToolDialogPortal>
 *     <ConfirmToolDialogOverlay />
 *     <ConfirmToolDialogContent>
 *       <ConfirmToolDialogTitle />
 *       <ConfirmToolDialogArguments />
 *       <ConfirmToolDialogFingerprint />
 *       <ConfirmToolDialogDeny />
 *       <ConfirmToolDialogApprove />
 *     </ConfirmToolDialogContent>
 *   </ConfirmToolDialogPortal>
 * </ConfirmToolDialogRoot>
 */
export function ConfirmToolDialogRoot(props: ConfirmToolDialogRootProps) {
  if (props.open !== undefined) return <ControlledRoot {...props} open={props.open} />;
  if (props.defaultOpen !== undefined) return <UncontrolledRoot {...props} defaultOpen={props.defaultOpen} />;
  return <QueueRoot {...props} />;
}

function UncontrolledRoot(props: ConfirmToolDialogRootProps & { defaultOpen: boolean }) {
  const [open, setOpen] = useState(props.defaultOpen);
  return (
    <ControlledRoot
      {...props}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        props.onOpenChange?.(next);
      }}
    />
  );
}

/** What the root needs from either mode. */
interface Model {
  open: boolean;
  view: ConfirmationView | null;
  status: ConfirmationStatus;
  outcome: ConfirmationOutcome | null;
  waiting: number;
  ahead: number;
  actions: ToolConfirmationActions;
  close: () => void;
  fallbackTitle: string;
  /** Whether grants are offered unless the props say. */
  grantsByDefault: boolean;
  /** The queue's controller (its policy offers scoped grants), or `null` for one proposed call. */
  controller: ConfirmationController | null;
}

function useLatest<T>(value: T): { readonly current: T } {
  const latest = useRef(value);
  useIsomorphicLayoutEffect(() => {
    latest.current = value;
  });
  return latest;
}

function ControlledRoot(props: ConfirmToolDialogRootProps & { open: boolean }) {
  const latest = useLatest(props);
  const request = useToolConfirmationRequest({
    open: props.open,
    toolName: props.toolName ?? '',
    arguments: props.arguments,
    room: props.room,
    descriptor: props.descriptor,
    onApprove: props.onApprove,
    onDeny: props.onDeny,
    checkOutcome: props.checkOutcome,
    editable: props.editable,
    expiresAt: props.expiresAt,
    controller: props.controller,
    onResult: (outcome, view) => {
      latest.current.onResult?.(outcome);
      // done and denied end the dialog; the outcomes the table holds on screen (refused, failed,
      // uncertain) stay until read and closed. A call invoked directly was never shown: whatever
      // its outcome, nothing is left to show.
      if (!confirmationStatusSets().held.has(outcome.status) || !view.descriptor.requiresConfirmation) latest.current.onOpenChange?.(false);
    },
    onError: (reason) => latest.current.onResult?.({ status: 'refused', reason }),
  });
  const model: Model = {
    // Shown once the request exists (or ended before review), never for a call invoked directly.
    open: props.open && !request.direct && (request.view !== null || request.outcome !== null),
    view: request.view,
    status: request.status,
    outcome: request.outcome,
    waiting: 0,
    ahead: request.ahead,
    actions: request,
    close: () => {
      request.dismiss();
      latest.current.onOpenChange?.(false);
    },
    fallbackTitle: props.descriptor?.title ?? props.toolName ?? '',
    grantsByDefault: false,
    controller: null,
  };
  return <RootView model={model} props={props} />;
}

function QueueRoot(props: ConfirmToolDialogRootProps) {
  const queue = useToolConfirmation(props.controller);
  const open = queue.current !== null;
  useQueueCallbacks(queue.controller, open, props);
  const model: Model = {
    open,
    view: queue.current,
    status: queue.status,
    outcome: queue.current?.outcome ?? null,
    waiting: queue.waiting,
    ahead: 0,
    actions: queue,
    close: queue.dismiss,
    fallbackTitle: '',
    grantsByDefault: true,
    controller: queue.controller,
  };
  return <RootView model={model} props={props} />;
}

/** The typed name, the deny reason and a hold in progress belong to one request: a new one starts afresh. */
interface Review {
  id: string | undefined;
  typed: string;
  reason: string;
  holding: boolean;
  /** The "Respond instead" field is open: Escape closes it before it could deny. */
  responding: boolean;
}

function useReview(id: string | undefined): [Review, (change: Partial<Review>) => void] {
  const [review, setReview] = useState<Review>({ id, typed: '', reason: '', holding: false, responding: false });
  const update = useCallback((change: Partial<Review>) => setReview((previous) => ({ ...previous, ...change })), []);
  if (review.id !== id) {
    const fresh = { id, typed: '', reason: '', holding: false, responding: false };
    setReview(fresh);
    return [fresh, update];
  }
  return [review, update];
}

function RootView({ model, props }: { model: Model; props: ConfirmToolDialogRootProps }) {
  const all = useLabels();
  const override = props.labels;
  // The provider's `confirm` may be partial (it is merged one level deep): lay it over the defaults first.
  const confirm = useMemo(() => mergeConfirmLabels(mergeConfirmLabels(defaultConfirmLabels, all.confirm), override), [all.confirm, override]);
  const { view, status, actions } = model;
  const [review, update] = useReview(view?.id);
  const [focusTargets] = useState(() => new Map<FocusTarget, HTMLElement>());
  const focusTarget = useCallback(
    (target: FocusTarget, element: HTMLElement | null) => {
      if (element) focusTargets.set(target, element);
      else focusTargets.delete(target);
    },
    [focusTargets],
  );
  const focusFirst = useCallback(
    (...targets: FocusTarget[]) => {
      for (const target of targets) {
        const element = focusTargets.get(target);
        if (element?.isConnected) return element.focus();
      }
    },
    [focusTargets],
  );
  const descriptor = view?.descriptor ?? resolveToolDescriptor(props.descriptor);
  const step = props.confirmStep !== undefined && descriptor.risk === 'high' ? props.confirmStep : undefined;
  const canApprove = view !== null && view.can.approve && (step !== 'type-name' || review.typed.trim() === view.toolName);
  const reason = props.denyWithReason !== false && review.reason.trim() !== '' ? review.reason.trim() : undefined;
  // Nothing runs any more: the outcome (or the withdrawal) can be closed.
  const closable = view === null || confirmationStatusSets().ended.has(status);

  const returnFocus = useReturnFocus(model.open);

  const value: ConfirmToolDialogContextValue = {
    open: model.open,
    view,
    status,
    outcome: model.outcome ?? view?.outcome ?? null,
    descriptor,
    fallbackTitle: model.fallbackTitle,
    waiting: model.waiting,
    ahead: model.ahead,
    labels: { all, confirm },
    actions,
    step,
    holdMs: props.holdMs ?? 1500,
    canApprove,
    approve: () => {
      if (canApprove) actions.approve();
    },
    deny: () => {
      actions.deny(reason);
    },
    close: model.close,
    escape: () => {
      // In the editor, Escape leaves the editor (the arguments as they were); while a draft is checked, nothing.
      if (status === 'editing') actions.cancelEdit();
      else if (status === 'revising') return;
      // An answer being written is closed first: a person writing one has not said no.
      else if (review.responding && view?.can.respond) update({ responding: false });
      else if (view?.can.deny) actions.deny(reason);
      else if (closable) model.close();
      // confirming, invoking, checking: after approval nothing cancels the call.
    },
    closable,
    // The review layout (Deny, Approve) holds from the first look until the first outcome, so focus stays put.
    reviewing: view !== null && view.attempt === 1 && confirmationStatusSets().beforeEnd.has(status),
    editing: status === 'editing' || status === 'revising',
    offerGrants: props.grants ?? model.grantsByDefault,
    controller: model.controller,
    clock: props.clock ?? systemClock,
    typed: review.typed,
    setTyped: (typed) => update({ typed }),
    denyWithReason: props.denyWithReason !== false,
    reason: review.reason,
    setReason: (text) => update({ reason: text }),
    holding: review.holding,
    setHolding: (holding) => update({ holding }),
    responding: review.responding,
    setResponding: (responding) => update({ responding }),
    focusTarget,
    focusFirst,
    returnFocus,
  };
  return (
    <Dialog.Root open={model.open} modal={props.modal ?? true}>
      <ConfirmToolDialogContext.Provider value={value}>{props.children}</ConfirmToolDialogContext.Provider>
    </Dialog.Root>
  );
}

/** Where focus was when the dialog opened; focused again once it has closed (not while it stays open). */
function useReturnFocus(open: boolean): () => void {
  const opener = useRef<Element | null>(null);
  const isOpen = useRef(open);
  useIsomorphicLayoutEffect(() => {
    isOpen.current = open;
    // Before any passive effect moves focus into the dialog: this is where focus returns.
    if (open) opener.current = document.activeElement;
  }, [open]);
  return useCallback(() => {
    const back = opener.current;
    if (isOpen.current) return;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  }, []);
}
