import * as Dialog from '@radix-ui/react-dialog';
import { forwardRef, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';
import type {
  ApprovalContext,
  CheckOutcome,
  ConfirmationController,
  ConfirmationOutcome,
  ConfirmationStatus,
  ConfirmationView,
} from '../core/confirmation-machine';
import type { JsonValue } from '../core/json-value';
import type { ToolRoom } from '../core/room';
import { resolveToolDescriptor, type ToolDescriptor } from '../core/tool-descriptor';
import { defaultConfirmLabels, type ConfirmToolLabels } from '../hooks/confirm-labels';
import { formatNumber, useLabels, type ToolgateLabels } from '../hooks/labels';
import {
  useToolConfirmation,
  useToolConfirmationRequest,
  type ToolConfirmationActions,
} from '../hooks/use-tool-confirmation';
import { ArgumentsPreview, type ArgumentsSchema } from './arguments-preview';
import { HoldButton, type ConfirmStep } from './confirm-step';
import { cx } from './cx';


/**
 * Any part of the dialog's strings; the records (`status`, `effect`, `problem`) may be given in part.
 *
 * @example
 * const labels: ConfirmToolLabelsOverride = { approve: 'Send', status: { invoking: 'Sending…' } };
 */
export type ConfirmToolLabelsOverride = {
  [K in keyof ConfirmToolLabels]?: ConfirmToolLabels[K] extends (...args: never[]) => unknown
    ? ConfirmToolLabels[K]
    : ConfirmToolLabels[K] extends object
      ? Partial<ConfirmToolLabels[K]>
      : ConfirmToolLabels[K];
};

/**
 * Props of {@link ConfirmToolDialog}. With `open` (or `defaultOpen`) given, the dialog confirms
 * that one call (`toolName`, `arguments`, through `room` or `onApprove`); without either, it
 * shows the controller's queue (the provider's by default), one request at a time.
 *
 * @example
 * const props: ConfirmToolDialogProps = { open, onOpenChange: setOpen, toolName: 'transfer', arguments: args, room, onResult };
 */
export interface ConfirmToolDialogProps {
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
  /** A deliberate second step for high-risk requests: type the tool's name, or press and hold Approve. */
  confirmStep?: ConfirmStep;
  /** How long `confirmStep="hold"` must be held, in ms (default 1500). */
  holdMs?: number;
  /** Offer a field for a reason when denying. */
  denyWithReason?: boolean;
  /** The tool's JSON Schema: field titles and descriptions in the argument tree. */
  schema?: ArgumentsSchema;
  /** Strings for this dialog, over `labels.confirm` of the nearest `ToolgateLabelsProvider`. */
  labels?: ConfirmToolLabelsOverride;
  /** Where the dialog is portalled (default `document.body`). */
  container?: HTMLElement | null;
  /**
   * `true` (the default): the page behind is inert, focus is trapped, an overlay covers the page.
   * `false` shows the same dialog without them, so several can be seen at once (a gallery of its
   * states, a docs page); with `container` it sits where you put it. A proposal that a person must
   * answer should stay modal. A click outside does nothing either way; Escape goes to the dialog
   * opened last.
   */
  modal?: boolean;
  className?: string;
}

/**
 * The approval dialog, on `@radix-ui/react-dialog`: titled with the
 * proposed action, the exact arguments as a readable tree (long strings and large arrays start
 * collapsed, never cut), effect, risk, the short fingerprint, Approve and Deny.
 *
 * - Escape denies while reviewing; a click outside does nothing; once approved, nothing (Escape,
 *   close, unmount) cancels the call in flight.
 * - Errors appear in a `role="alert"` region inside the dialog: a refused confirmation, a failed
 *   call, an unknown outcome (with the application's `checkOutcome`, then a deliberate retry
 *   with a new confirmation).
 * - Focus is trapped while open and returns to where it was.
 * - `data-state` (`open`/`closed`) and `data-status` (the request's status) for styling.
 *
 * A thin view over {@link useToolConfirmation} (queue mode) and
 * {@link useToolConfirmationRequest} (controlled mode): build your own on those hooks.
 *
 * @example
 * // One proposed call, through a room:
 * <ConfirmToolDialog open={open} onOpenChange={setOpen} toolName="transfer" arguments={{ to: 'bob', amount: 5 }}
 *   room={room} descriptor={{ effect: 'write', risk: 'high', requiresConfirmation: true }} onResult={setOutcome} />;
 * // The provider's queue (the server's gate, app tools), one at a time:
 * <ToolgateProvider session={session} room={room}><ConfirmToolDialog /></ToolgateProvider>;
 */
export function ConfirmToolDialog(props: ConfirmToolDialogProps) {
  if (props.open !== undefined) return <ControlledDialog {...props} open={props.open} />;
  if (props.defaultOpen !== undefined) return <UncontrolledDialog {...props} defaultOpen={props.defaultOpen} />;
  return <QueueDialog {...props} />;
}

function UncontrolledDialog(props: ConfirmToolDialogProps & { defaultOpen: boolean }) {
  const [open, setOpen] = useState(props.defaultOpen);
  return (
    <ControlledDialog
      {...props}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        props.onOpenChange?.(next);
      }}
    />
  );
}

/** What the view needs, from either mode. */
interface DialogModel {
  open: boolean;
  view: ConfirmationView | null;
  status: ConfirmationStatus;
  outcome: ConfirmationOutcome | null;
  /** Requests waiting behind the shown one (queue mode). */
  waiting: number;
  /** Requests before this one in a shared controller (controlled mode). */
  ahead: number;
  actions: ToolConfirmationActions;
  /** Close after an outcome. */
  close: () => void;
}

function ControlledDialog(props: ConfirmToolDialogProps & { open: boolean }) {
  const latest = useRef(props);
  useIsomorphicLayoutEffect(() => {
    latest.current = props;
  });
  const request = useToolConfirmationRequest({
    open: props.open,
    toolName: props.toolName ?? '',
    arguments: props.arguments,
    room: props.room,
    descriptor: props.descriptor,
    onApprove: props.onApprove,
    onDeny: props.onDeny,
    checkOutcome: props.checkOutcome,
    controller: props.controller,
    onResult: (outcome, view) => {
      latest.current.onResult?.(outcome);
      // done and denied end the dialog; refused, failed and uncertain stay until read and closed.
      // A call invoked directly was never shown: whatever its outcome, nothing is left to show.
      if (outcome.status === 'done' || outcome.status === 'denied' || !view.descriptor.requiresConfirmation) latest.current.onOpenChange?.(false);
    },
    onError: (reason) => latest.current.onResult?.({ status: 'refused', reason }),
  });
  const model: DialogModel = {
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
  };
  return <DialogView model={model} props={props} fallbackTitle={props.descriptor?.title ?? props.toolName ?? ''} />;
}

function QueueDialog(props: ConfirmToolDialogProps) {
  const queue = useToolConfirmation(props.controller);
  const { controller } = queue;
  const latest = useRef(props);
  useIsomorphicLayoutEffect(() => {
    latest.current = props;
  });
  // Every outcome, even two between renders.
  useEffect(
    () =>
      controller.subscribe((state, previous) => {
        if (state.last !== previous.last && state.last !== null) latest.current.onResult?.(state.last.outcome);
      }),
    [controller],
  );
  const open = queue.current !== null;
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current === open) return;
    wasOpen.current = open;
    latest.current.onOpenChange?.(open);
  }, [open]);
  const model: DialogModel = {
    open,
    view: queue.current,
    status: queue.status,
    outcome: queue.current?.outcome ?? null,
    waiting: queue.waiting,
    ahead: 0,
    actions: queue,
    close: queue.dismiss,
  };
  return <DialogView model={model} props={props} fallbackTitle="" />;
}

/** `base` with `override` laid over it, records merged one level down. */
function mergeConfirmLabels(base: ConfirmToolLabels, override: ConfirmToolLabelsOverride | Partial<ConfirmToolLabels> | undefined): ConfirmToolLabels {
  if (!override || override === base) return base;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const prior = merged[key];
    merged[key] = typeof value === 'object' && value !== null && typeof prior === 'object' && prior !== null ? { ...prior, ...value } : value;
  }
  return merged as unknown as ConfirmToolLabels;
}

function useConfirmLabels(override: ConfirmToolLabelsOverride | undefined): { all: ToolgateLabels; confirm: ConfirmToolLabels } {
  const all = useLabels();
  const confirm = useMemo(
    // The provider's `confirm` may be partial (it is merged one level deep): lay it over the defaults first.
    () => mergeConfirmLabels(mergeConfirmLabels(defaultConfirmLabels, all.confirm), override),
    [all.confirm, override],
  );
  return { all, confirm };
}

const BUSY: ReadonlySet<ConfirmationStatus> = new Set(['confirming', 'invoking', 'checking']);
const ENDED: ReadonlySet<ConfirmationStatus> = new Set(['done', 'denied', 'refused', 'failed', 'uncertain', 'withdrawn']);

function DialogView({ model, props, fallbackTitle }: { model: DialogModel; props: ConfirmToolDialogProps; fallbackTitle: string }) {
  const { all, confirm } = useConfirmLabels(props.labels);
  const opener = useRef<Element | null>(null);
  const isOpen = useRef(model.open);
  const onEscape = useRef<(() => void) | null>(null);
  useIsomorphicLayoutEffect(() => {
    isOpen.current = model.open;
    // Before any passive effect moves focus into the dialog: this is where focus returns.
    if (model.open) opener.current = document.activeElement;
  }, [model.open]);

  const view = model.view;
  const descriptor = view?.descriptor ?? resolveToolDescriptor(props.descriptor);
  return (
    <Dialog.Root open={model.open} modal={props.modal ?? true}>
      <Dialog.Portal container={props.container}>
        <Dialog.Overlay className="toolgate-confirm-overlay" />
        <Dialog.Content
          className={cx('toolgate-confirm', props.className)}
          data-status={model.status}
          data-risk={descriptor.risk}
          data-effect={descriptor.effect}
          // DESIGN: "a click outside does nothing".
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          onEscapeKeyDown={(event) => {
            // The dialog never closes by itself: Escape denies while reviewing, closes a shown
            // outcome, and does nothing while a call is in flight. A held-down Escape acts once.
            event.preventDefault();
            if (!event.repeat) onEscape.current?.();
          }}
          // The body focuses its own first control (Deny, or the confirm step's field).
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const back = opener.current;
            if (isOpen.current) return;
            if (back instanceof HTMLElement && back.isConnected) back.focus();
          }}
        >
          {view === null ? (
            <EndedBeforeReview model={model} confirm={confirm} title={fallbackTitle} onEscape={onEscape} />
          ) : (
            <DialogBody
              key={view.id}
              model={model}
              view={view}
              props={props}
              all={all}
              confirm={confirm}
              onEscape={onEscape}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Swallow held-down Enter and Space on the dialog's buttons: a key repeat must never act twice, nor on the next request. */
function ignoreRepeat(event: KeyboardEvent<HTMLElement>): void {
  if (event.repeat && (event.key === 'Enter' || event.key === ' ')) event.preventDefault();
}

interface BodyProps {
  model: DialogModel;
  view: ConfirmationView;
  props: ConfirmToolDialogProps;
  all: ToolgateLabels;
  confirm: ConfirmToolLabels;
  onEscape: { current: (() => void) | null };
}

function DialogBody({ model, view, props, all, confirm, onEscape }: BodyProps) {
  const { status, actions } = model;
  const { descriptor, toolName } = view;
  const outcome = model.outcome ?? view.outcome;
  const ids = { typed: useId(), reason: useId(), hold: useId() };
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const [holding, setHolding] = useState(false);
  const denyRef = useRef<HTMLButtonElement>(null);
  const typedRef = useRef<HTMLInputElement>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);

  const step = props.confirmStep !== undefined && descriptor.risk === 'high' ? props.confirmStep : undefined;
  // The review layout (Deny, Approve) holds from the first look until the first outcome, so focus stays put.
  const reviewing = !ENDED.has(status) && view.attempt === 1 && status !== 'checking';
  const editable = status === 'idle' || status === 'reviewing';
  const stepSatisfied = step !== 'type-name' || typed.trim() === toolName;
  const canApprove = view.can.approve && stepSatisfied;
  const denyReason = (): string | undefined => (props.denyWithReason && reason.trim() !== '' ? reason.trim() : undefined);
  const approve = (): void => {
    if (canApprove) actions.approve();
  };
  const deny = (): void => {
    actions.deny(denyReason());
  };
  const closable = view.can.dismiss || status === 'done' || status === 'denied' || status === 'withdrawn';

  useIsomorphicLayoutEffect(() => {
    onEscape.current = () => {
      if (view.can.deny) actions.deny(denyReason());
      else if (closable) model.close();
      // confirming, invoking, checking: after approval nothing cancels the call.
    };
  });

  // First focus: the confirm step's field, or Deny (the safe choice); after an outcome, its safe action.
  useEffect(() => {
    if (reviewing) (step === 'type-name' ? typedRef.current : denyRef.current)?.focus();
    // Only on mount: a new request (keyed by id) mounts a new body.
  }, []);
  useEffect(() => {
    if (ENDED.has(status)) primaryRef.current?.focus();
  }, [status]);

  const effect = confirm.effect[descriptor.effect];
  const description = descriptor.effect === 'read' ? confirm.descriptionRead : confirm.description;
  const count = (n: number) => formatNumber(n, all.locale);
  const statusText = holding ? confirm.holding : confirm.status[status];
  const approveLabel = confirm.approve;

  return (
    <>
      {/* A div, not <header>: outside article and section a header is a banner landmark, and dialogs
          shown side by side (modal={false}) would each add one. */}
      <div className="toolgate-confirm-header">
        <Dialog.Title className="toolgate-confirm-title">{confirm.title(view.title, toolName)}</Dialog.Title>
        <div className="toolgate-confirm-chips">
          <span className="toolgate-chip" data-effect={descriptor.effect}>
            {effect}
          </span>
          <span className="toolgate-chip" data-risk={descriptor.risk}>
            {all.risk[descriptor.risk]}
          </span>
        </div>
        {model.waiting > 0 && <p className="toolgate-confirm-waiting">{confirm.waiting(model.waiting, count(model.waiting))}</p>}
        {model.ahead > 0 && <p className="toolgate-confirm-waiting">{confirm.queued(model.ahead, count(model.ahead))}</p>}
      </div>
      <Dialog.Description className="toolgate-confirm-description">{description}</Dialog.Description>
      {descriptor.description && <p className="toolgate-confirm-tool-description">{descriptor.description}</p>}
      <dl className="toolgate-confirm-facts">
        <div>
          <dt>{confirm.tool}</dt>
          <dd>
            <code>{toolName}</code>
          </dd>
        </div>
        <div>
          <dt>{confirm.fingerprint}</dt>
          <dd>
            <code className="toolgate-confirm-fingerprint" data-fingerprint={view.fingerprint?.hex}>
              {view.fingerprint?.short ?? '…'}
            </code>{' '}
            <span className="toolgate-sr-only">{confirm.fingerprintHint}</span>
          </dd>
        </div>
        {descriptor.requiredAction && (
          <div>
            <dt>{confirm.requiredAction}</dt>
            <dd>
              <code>{descriptor.requiredAction}</code>
            </dd>
          </div>
        )}
      </dl>
      {view.fingerprint !== null || view.arguments !== null ? (
        <ArgumentsPreview
          className="toolgate-confirm-args"
          // Scrollable: reachable by keyboard so its content can be scrolled and read.
          tabIndex={0}
          value={view.arguments}
          schema={props.schema}
          complete
        />
      ) : null}
      {status === 'done' && outcome?.status === 'done' && outcome.output !== undefined && (
        <section className="toolgate-confirm-result" aria-label={all.result}>
          <span className="toolgate-confirm-result-label">{all.result}</span>
          <ArgumentsPreview value={outcome.output} complete aria-label={all.result} />
        </section>
      )}
      <p role="status" className="toolgate-confirm-status">
        {statusText}
      </p>
      <div role="alert" className="toolgate-confirm-alert">
        {outcome && (outcome.status === 'refused' || outcome.status === 'failed' || outcome.status === 'uncertain') && (
          <Problem outcome={outcome} view={view} confirm={confirm} />
        )}
      </div>
      {reviewing && step === 'type-name' && (
        <div className="toolgate-confirm-field">
          <label htmlFor={ids.typed}>{confirm.typeToConfirm(toolName, approveLabel)}</label>
          <input
            ref={typedRef}
            id={ids.typed}
            value={typed}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            readOnly={!editable}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.repeat) {
                event.preventDefault();
                approve();
              }
            }}
          />
        </div>
      )}
      {reviewing && props.denyWithReason && (
        <div className="toolgate-confirm-field">
          <label htmlFor={ids.reason}>{confirm.denyReason}</label>
          <input id={ids.reason} value={reason} readOnly={!editable} onChange={(event) => setReason(event.target.value)} />
        </div>
      )}
      {reviewing && step === 'hold' && (
        <p id={ids.hold} className="toolgate-confirm-hint">
          {confirm.holdHint(approveLabel)}
        </p>
      )}
      <div className="toolgate-confirm-actions">
        {reviewing ? (
          <>
            <ActionButton ref={denyRef} className="toolgate-confirm-deny" enabled={view.can.deny} onAct={deny}>
              {confirm.deny}
            </ActionButton>
            {step === 'hold' ? (
              <HoldButton
                className="toolgate-button toolgate-confirm-approve"
                holdMs={props.holdMs ?? 1500}
                enabled={canApprove}
                aria-describedby={ids.hold}
                onComplete={approve}
                onHoldingChange={setHolding}
              >
                {approveLabel}
              </HoldButton>
            ) : (
              <ActionButton className="toolgate-confirm-approve" enabled={canApprove} onAct={approve}>
                {approveLabel}
              </ActionButton>
            )}
          </>
        ) : (
          <OutcomeActions model={model} view={view} confirm={confirm} closable={closable} primaryRef={primaryRef} />
        )}
      </div>
    </>
  );
}

function Problem({ outcome, view, confirm }: { outcome: ConfirmationOutcome & { status: 'refused' | 'failed' | 'uncertain' }; view: ConfirmationView; confirm: ConfirmToolLabels }) {
  return (
    <>
      <strong className="toolgate-confirm-problem">{confirm.problem[outcome.status]}</strong>
      <p className="toolgate-confirm-reason">{outcome.reason}</p>
      {outcome.status === 'uncertain' && <p className="toolgate-confirm-reason">{view.can.check ? confirm.uncertainCheck : confirm.uncertainRetry}</p>}
    </>
  );
}

function OutcomeActions({
  model,
  view,
  confirm,
  closable,
  primaryRef,
}: {
  model: DialogModel;
  view: ConfirmationView;
  confirm: ConfirmToolLabels;
  closable: boolean;
  primaryRef: { current: HTMLButtonElement | null };
}) {
  const { status, actions } = model;
  // A write whose outcome was unknown is retried only deliberately, with a new confirmation.
  const uncertainWrite = view.descriptor.effect === 'write' && (status === 'uncertain' || view.checked || status === 'checking' || view.attempt > 1);
  const showCheck = view.checkable && (status === 'uncertain' || status === 'checking');
  const showRetry = view.can.retry || (BUSY.has(status) && view.attempt > 1);
  return (
    <>
      <ActionButton ref={showCheck ? undefined : primaryRef} enabled={closable} onAct={model.close}>
        {confirm.close}
      </ActionButton>
      {showCheck && (
        <ActionButton ref={primaryRef} className="toolgate-confirm-check" enabled={view.can.check} onAct={actions.check}>
          {confirm.check}
        </ActionButton>
      )}
      {showRetry && (
        <ActionButton className="toolgate-confirm-retry" enabled={view.can.retry} onAct={actions.retry}>
          {uncertainWrite ? confirm.retryUncertain : confirm.retry}
        </ActionButton>
      )}
    </>
  );
}

interface ActionButtonProps {
  enabled: boolean;
  onAct: () => void;
  className?: string;
  children: ReactNode;
}

/**
 * A dialog button that stays focusable while it cannot act (`aria-disabled`, so focus is not
 * lost when a request moves on), and ignores held-down keys.
 */
const ActionButton = forwardRef<HTMLButtonElement, ActionButtonProps>(function ActionButton({ enabled, onAct, className, children }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      className={cx('toolgate-button', className)}
      aria-disabled={enabled ? undefined : true}
      onKeyDown={ignoreRepeat}
      onClick={() => {
        if (enabled) onAct();
      }}
    >
      {children}
    </button>
  );
});

/** Shown when a request ended before it could be reviewed (arguments not JSON, no room): the reason, and Close. */
function EndedBeforeReview({
  model,
  confirm,
  title,
  onEscape,
}: {
  model: DialogModel;
  confirm: ConfirmToolLabels;
  title: string;
  onEscape: { current: (() => void) | null };
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useIsomorphicLayoutEffect(() => {
    onEscape.current = model.close;
  });
  useEffect(() => {
    closeRef.current?.focus();
  }, []);
  const outcome = model.outcome;
  return (
    <>
      <div className="toolgate-confirm-header">
        <Dialog.Title className="toolgate-confirm-title">{title}</Dialog.Title>
      </div>
      <Dialog.Description className="toolgate-confirm-description">{confirm.status[model.status]}</Dialog.Description>
      <div role="alert" className="toolgate-confirm-alert">
        {outcome && outcome.status !== 'done' && outcome.status !== 'denied' && (
          <>
            <strong className="toolgate-confirm-problem">{confirm.problem[outcome.status]}</strong>
            <p className="toolgate-confirm-reason">{outcome.reason}</p>
          </>
        )}
      </div>
      <div className="toolgate-confirm-actions">
        <ActionButton ref={closeRef} enabled onAct={model.close}>
          {confirm.close}
        </ActionButton>
      </div>
    </>
  );
}
