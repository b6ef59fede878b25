/**
 * The rest of `<ConfirmToolDialog />`'s body, built on the same root as the public parts: the
 * effect and risk chips, the facts (tool, fingerprint, authority), the result, the status line,
 * the alert for an unhappy outcome, the confirm step's fields, and the outcome's actions (Close,
 * Check, Retry). One concern per component.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { confirmationStatusSets } from '../core/confirmation-machine';
import type { ConfirmationOutcome } from '../core/confirmation-types';
import { formatNumber } from '../hooks/labels';
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
import { ConfirmToolDialogChanges } from './confirm-changes';
import { ConfirmToolDialogEditor } from './confirm-editor';
import { ConfirmToolDialogExpiry } from './confirm-expiry';
import { cx } from './cx';
import { ConfirmParentLine } from './confirm-parent';
import { ConfirmDecideInstead } from './confirm-respond';

/** The whole body of one request, as `<ConfirmToolDialog />` lays it out. */
export function DefaultBody({ schema }: { schema: ArgumentsSchema | undefined }) {
  const { view, editing } = useConfirmToolDialog();
  if (view === null) return <EndedBeforeReview />;
  return (
    <>
      {/* A div, not <header>: outside article and section a header is a banner landmark, and dialogs
          shown side by side (modal={false}) would each add one. */}
      <div className="toolgate-confirm-header">
        <ConfirmToolDialogTitle />
        <ConfirmParentLine />
        <Chips />
        <ConfirmToolDialogQueueCount />
      </div>
      <ConfirmToolDialogExpiry />
      <ConfirmToolDialogDescription />
      {view.descriptor.description && <p className="toolgate-confirm-tool-description">{view.descriptor.description}</p>}
      <Decider />
      <Facts />
      {editing ? <ConfirmToolDialogEditor /> : <ConfirmToolDialogArguments schema={schema} />}
      <Edited />
      <Result />
      <StatusLine />
      <Alert />
      <ReviewFields />
      <Actions />
    </>
  );
}

function Chips() {
  const { view, descriptor, labels } = useConfirmToolDialog();
  return (
    <div className="toolgate-confirm-chips">
      {view?.edited && (
        <span className="toolgate-chip" data-edited="">
          {labels.confirm.editedMark}
        </span>
      )}
      <span className="toolgate-chip" data-effect={descriptor.effect}>
        {labels.confirm.effect[descriptor.effect]}
      </span>
      <span className="toolgate-chip" data-risk={descriptor.risk}>
        {labels.all.risk[descriptor.risk]}
      </span>
    </div>
  );
}

/** Who answered the request when it was not a person looking at it: a standing grant (named), or a list decided together. */
function Decider() {
  const { view, labels } = useConfirmToolDialog();
  const decider = view?.decidedBy;
  if (!view || !decider || decider.by === 'person') return null;
  const text =
    decider.by === 'grant'
      ? labels.confirm.answeredByGrant(decider.grant.decision, decider.grant.toolName)
      : labels.confirm.answeredByBatch(decider.size, formatNumber(decider.size, labels.all.locale));
  return (
    <p className="toolgate-confirm-decider" data-grant={decider.by === 'grant' ? decider.grant.id : undefined}>
      {text}
    </p>
  );
}

/** After a saved edit: what it means, the changes from the proposed arguments, and the way back to them. */
function Edited() {
  const { view, editing, reviewing, actions, labels } = useConfirmToolDialog();
  if (view === null || !view.edited || editing) return null;
  const back = reviewing && view.can.edit;
  return (
    <>
      <p className="toolgate-confirm-edited">{labels.confirm.edited}</p>
      <ConfirmToolDialogChanges />
      {back && (
        <p className="toolgate-confirm-more">
          <ActionButton enabled onAct={() => {
            // Through the editor, as any edit: the proposed snapshot is checked and fingerprinted again.
            if (actions.edit()) void actions.submitEdit(view.original);
          }}>
            {labels.confirm.useProposed}
          </ActionButton>
        </p>
      )}
    </>
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
  const problem = outcome !== null && confirmationStatusSets().held.has(outcome.status) ? (outcome as Extract<ConfirmationOutcome, { status: 'refused' | 'failed' | 'uncertain' | 'expired' }>) : null;
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
  const { view, status, reviewing, editing, step, labels, focusFirst } = useConfirmToolDialog();
  const hint = useId();
  // Leaving the editor (saved or cancelled): focus goes back to Edit, never lost to the page.
  const wasEditing = useRef(editing);
  useEffect(() => {
    if (wasEditing.current && !editing) focusFirst('edit', 'deny');
    wasEditing.current = editing;
  }, [editing, focusFirst]);
  if (status === 'expired' && view !== null && view.attempt === 1) {
    // Expired under review: the buttons stay where they were, disabled, so a late click lands on nothing that acts.
    return (
      <div className="toolgate-confirm-actions">
        <ConfirmToolDialogDeny />
        <ConfirmToolDialogApprove />
        <OutcomeActions />
      </div>
    );
  }
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
      {!editing && <MoreActions />}
      {!editing && <ConfirmDecideInstead />}
      <div className="toolgate-confirm-actions">
        <ConfirmToolDialogDeny />
        <ConfirmToolDialogApprove aria-describedby={step === 'hold' ? hint : undefined} />
      </div>
    </>
  );
}

/** Edit the arguments, and the standing grants: "Deny for this session", "Allow for this session" (or why it is not offered). */
function MoreActions() {
  const dialog = useConfirmToolDialog();
  const { view, offerGrants, actions, labels, reason: typedReason, denyWithReason } = dialog;
  const refused = useId();
  if (view === null || (!view.editable && !offerGrants)) return null;
  const refusal = view.grantRefusal;
  const reason = denyWithReason && typedReason.trim() !== '' ? typedReason.trim() : undefined;
  return (
    <div className="toolgate-confirm-more">
      {view.editable && (
        <ActionButton focus="edit" className="toolgate-confirm-edit" enabled={view.can.edit} onAct={actions.edit}>
          {labels.confirm.edit}
        </ActionButton>
      )}
      {offerGrants && (
        <>
          <ActionButton className="toolgate-confirm-deny-session" enabled={view.can.denyForSession} onAct={() => actions.denyForSession(reason)}>
            {labels.confirm.denyForSession}
          </ActionButton>
          <ActionButton
            className="toolgate-confirm-allow-session"
            enabled={view.can.allowForSession}
            onAct={actions.allowForSession}
            describedBy={refusal !== null ? refused : undefined}
          >
            {labels.confirm.allowForSession}
          </ActionButton>
          {refusal !== null && (
            <p id={refused} className="toolgate-confirm-hint">
              {labels.confirm.grantRefused[refusal]}
            </p>
          )}
        </>
      )}
    </div>
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
  /** The id of what says why it cannot act. */
  describedBy?: string | undefined;
  children: ReactNode;
}

/**
 * A dialog button that stays focusable while it cannot act (`aria-disabled`, so focus is not
 * lost when a request moves on), and ignores held-down keys.
 */
function ActionButton({ enabled, onAct, focus, className, describedBy, children }: ActionButtonProps) {
  const ref = useFocusTarget<HTMLButtonElement>(focus);
  return (
    <button
      ref={ref}
      type="button"
      className={cx('toolgate-button', className)}
      aria-disabled={enabled ? undefined : true}
      aria-describedby={describedBy}
      onKeyDown={ignoreRepeat}
      onClick={() => {
        if (enabled) onAct();
      }}
    >
      {children}
    </button>
  );
}
