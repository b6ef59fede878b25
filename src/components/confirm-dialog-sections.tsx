/**
 * The rest of `<ConfirmToolDialog />`'s body, built on the same root as the public parts: the
 * effect and risk chips, the facts (tool, fingerprint, authority), the result, the status line,
 * the alert for an unhappy outcome, the confirm step's fields, and the outcome's actions (Close,
 * Check, Retry). One concern per component.
 */
import { useId, type ReactNode } from 'react';
import { confirmationStatusSets } from '../core/confirmation-machine';
import type { ConfirmationOutcome } from '../core/confirmation-types';
import { ArgumentsPreview, type ArgumentsSchema } from './arguments-preview';
import { ignoreRepeat, useConfirmToolDialog, useFocusTarget, type FocusTarget } from './confirm-dialog-context';
import {
  ConfirmToolDialogApprove,
  ConfirmToolDialogArguments,
  ConfirmToolDialogDeny,
  ConfirmToolDialogDescription,
  ConfirmToolDialogFingerprint,
  ConfirmToolDialogQueueCount,
  ConfirmToolDialogTitle,
} from './confirm-dialog-parts';
import { cx } from './cx';

/** The whole body of one request, as `<ConfirmToolDialog />` lays it out. */
export function DefaultBody({ schema }: { schema: ArgumentsSchema | undefined }) {
  const { view } = useConfirmToolDialog();
  if (view === null) return <EndedBeforeReview />;
  return (
    <>
      {/* A div, not <header>: outside article and section a header is a banner landmark, and dialogs
          shown side by side (modal={false}) would each add one. */}
      <div className="toolgate-confirm-header">
        <ConfirmToolDialogTitle />
        <Chips />
        <ConfirmToolDialogQueueCount />
      </div>
      <ConfirmToolDialogDescription />
      {view.descriptor.description && <p className="toolgate-confirm-tool-description">{view.descriptor.description}</p>}
      <Facts />
      <ConfirmToolDialogArguments schema={schema} />
      <Result />
      <StatusLine />
      <Alert />
      <ReviewFields />
      <Actions />
    </>
  );
}

function Chips() {
  const { descriptor, labels } = useConfirmToolDialog();
  return (
    <div className="toolgate-confirm-chips">
      <span className="toolgate-chip" data-effect={descriptor.effect}>
        {labels.confirm.effect[descriptor.effect]}
      </span>
      <span className="toolgate-chip" data-risk={descriptor.risk}>
        {labels.all.risk[descriptor.risk]}
      </span>
    </div>
  );
}

function Facts() {
  const { view, descriptor, labels } = useConfirmToolDialog();
  return (
    <dl className="toolgate-confirm-facts">
      <div>
        <dt>{labels.confirm.tool}</dt>
        <dd>
          <code>{view?.toolName}</code>
        </dd>
      </div>
      <div>
        <dt>{labels.confirm.fingerprint}</dt>
        <dd>
          <ConfirmToolDialogFingerprint /> <span className="toolgate-sr-only">{labels.confirm.fingerprintHint}</span>
        </dd>
      </div>
      {descriptor.requiredAction && (
        <div>
          <dt>{labels.confirm.requiredAction}</dt>
          <dd>
            <code>{descriptor.requiredAction}</code>
          </dd>
        </div>
      )}
    </dl>
  );
}

/** `invokeTool`'s own response, once done (DESIGN: a trace is not a receipt). */
function Result() {
  const { status, outcome, labels } = useConfirmToolDialog();
  if (status !== 'done' || outcome?.status !== 'done' || outcome.output === undefined) return null;
  return (
    <section className="toolgate-confirm-result" aria-label={labels.all.result}>
      <span className="toolgate-confirm-result-label">{labels.all.result}</span>
      <ArgumentsPreview value={outcome.output} complete aria-label={labels.all.result} />
    </section>
  );
}

function StatusLine() {
  const { status, holding, labels } = useConfirmToolDialog();
  return (
    <p role="status" className="toolgate-confirm-status">
      {holding ? labels.confirm.holding : labels.confirm.status[status]}
    </p>
  );
}

/** Why a request was refused, failed or has an unknown outcome: the outcomes a person must read. */
function Alert() {
  const { view, outcome, labels } = useConfirmToolDialog();
  const problem = outcome !== null && confirmationStatusSets().held.has(outcome.status) ? (outcome as Exclude<ConfirmationOutcome, { status: 'done' | 'denied' }>) : null;
  return (
    <div role="alert" className="toolgate-confirm-alert">
      {problem && (
        <>
          <strong className="toolgate-confirm-problem">{labels.confirm.problem[problem.status]}</strong>
          <p className="toolgate-confirm-reason">{problem.status === 'expired' ? labels.confirm.expiredReason : problem.reason}</p>
          {problem.status === 'uncertain' && view && (
            <p className="toolgate-confirm-reason">{view.can.check ? labels.confirm.uncertainCheck : labels.confirm.uncertainRetry}</p>
          )}
        </>
      )}
    </div>
  );
}

/** The typed-name step, the deny reason and the hold hint, while the review layout shows. */
function ReviewFields() {
  const dialog = useConfirmToolDialog();
  const { view, step, labels, reviewing } = dialog;
  const ids = { typed: useId(), reason: useId() };
  const stepRef = useFocusTarget<HTMLInputElement>('step');
  if (!reviewing || view === null) return null;
  // Typing stops once a person decided: the request has left review.
  const editable = confirmationStatusSets().awaitingDecision.has(dialog.status);
  return (
    <>
      {step === 'type-name' && (
        <div className="toolgate-confirm-field">
          <label htmlFor={ids.typed}>{labels.confirm.typeToConfirm(view.toolName, labels.confirm.approve)}</label>
          <input
            ref={stepRef}
            id={ids.typed}
            value={dialog.typed}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            readOnly={!editable}
            onChange={(event) => dialog.setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.repeat) {
                event.preventDefault();
                dialog.approve();
              }
            }}
          />
        </div>
      )}
      {dialog.denyWithReason && (
        <div className="toolgate-confirm-field">
          <label htmlFor={ids.reason}>{labels.confirm.denyReason}</label>
          <input id={ids.reason} value={dialog.reason} readOnly={!editable} onChange={(event) => dialog.setReason(event.target.value)} />
        </div>
      )}
    </>
  );
}

/** Deny and Approve while reviewing; Close, Check and Retry after an outcome. */
function Actions() {
  const { reviewing, step, labels } = useConfirmToolDialog();
  const hint = useId();
  if (!reviewing) {
    return (
      <div className="toolgate-confirm-actions">
        <OutcomeActions />
      </div>
    );
  }
  return (
    <>
      {step === 'hold' && (
        <p id={hint} className="toolgate-confirm-hint">
          {labels.confirm.holdHint(labels.confirm.approve)}
        </p>
      )}
      <div className="toolgate-confirm-actions">
        <ConfirmToolDialogDeny />
        <ConfirmToolDialogApprove aria-describedby={step === 'hold' ? hint : undefined} />
      </div>
    </>
  );
}

function OutcomeActions() {
  const { view, status, closable, close, actions, labels } = useConfirmToolDialog();
  if (view === null) return null;
  // A write whose outcome was unknown is retried only deliberately, with a new confirmation.
  const uncertainWrite = view.descriptor.effect === 'write' && (status === 'uncertain' || view.checked || status === 'checking' || view.attempt > 1);
  const showCheck = view.checkable && (status === 'uncertain' || status === 'checking');
  const showRetry = view.can.retry || (confirmationStatusSets().inFlight.has(status) && view.attempt > 1);
  return (
    <>
      <ActionButton focus="close" enabled={closable} onAct={close}>
        {labels.confirm.close}
      </ActionButton>
      {showCheck && (
        <ActionButton focus="check" className="toolgate-confirm-check" enabled={view.can.check} onAct={actions.check}>
          {labels.confirm.check}
        </ActionButton>
      )}
      {showRetry && (
        <ActionButton className="toolgate-confirm-retry" enabled={view.can.retry} onAct={actions.retry}>
          {uncertainWrite ? labels.confirm.retryUncertain : labels.confirm.retry}
        </ActionButton>
      )}
    </>
  );
}

/** Shown when a request ended before it could be reviewed (no room, no tool name): the reason, and Close. */
function EndedBeforeReview() {
  const { close, labels } = useConfirmToolDialog();
  return (
    <>
      <div className="toolgate-confirm-header">
        <ConfirmToolDialogTitle />
      </div>
      <ConfirmToolDialogDescription />
      <Alert />
      <div className="toolgate-confirm-actions">
        <ActionButton focus="close" enabled onAct={close}>
          {labels.confirm.close}
        </ActionButton>
      </div>
    </>
  );
}

interface ActionButtonProps {
  enabled: boolean;
  onAct: () => void;
  /** The focus rule it answers to, if any. */
  focus?: FocusTarget;
  className?: string;
  children: ReactNode;
}

/**
 * A dialog button that stays focusable while it cannot act (`aria-disabled`, so focus is not
 * lost when a request moves on), and ignores held-down keys.
 */
function ActionButton({ enabled, onAct, focus, className, children }: ActionButtonProps) {
  const ref = useFocusTarget<HTMLButtonElement>(focus);
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
}
