/**
 * The rest of `<ConfirmToolDialog />`'s body, built on the same root as the public parts: the
 * effect and risk chips, the facts (tool, fingerprint, authority), the result, the status line,
 * the alert for an unhappy outcome, the confirm step's fields, and the outcome's actions (Close,
 * Check, Retry). One concern per component.
 */
import { Suspense, useCallback, useEffect, useId, useRef, type ReactNode } from 'react';
import { confirmationStatusSets } from '../core/approval/confirmation-machine';
import type { ConfirmationOutcome } from '../core/approval/confirmation-types';
import { formatNumber } from '../wording/labels';
import { useToolRenderer, type ToolReview } from '../provider/tool-renderers';
import { ArgumentsPreview, type ArgumentsSchema } from './arguments-preview';
import { ActionButton } from './action-button';
import { useConfirmToolDialog, useFocusTarget, type FocusTarget } from './confirm-dialog-context';
import {
  ConfirmToolDialogApprove,
  ConfirmToolDialogArguments,
  ConfirmToolDialogDeny,
  ConfirmToolDialogDescription,
  ConfirmToolDialogFingerprint,
  ConfirmToolDialogQueueCount,
  ConfirmToolDialogTitle,
} from './confirm-dialog-parts';
import { ConfirmToolDialogExpiry } from './confirm-expiry';
import { cx } from './cx';
import { ConfirmParentLine } from './confirm-parent';
import { lazyPart } from './lazy-part';
import { ConfirmDecideInstead } from './confirm-respond';
import { ScopedGrants } from './confirm-scoped-grants';

// The editor (with its form and schema check) and the changes list are loaded by a request that
// can be edited, when it arrives: most requests are approved or denied as they are.
const Editor = lazyPart(() => import('./confirm-editor').then((m) => m.ConfirmToolDialogEditor));
const Changes = lazyPart(() => import('./confirm-changes').then((m) => m.ConfirmToolDialogChanges));

/** The whole body of one request, as `<ConfirmToolDialog />` lays it out. */
export function DefaultBody({ schema }: { schema: ArgumentsSchema | undefined }) {
  const { view, editing } = useConfirmToolDialog();
  const editable = view?.editable === true || view?.edited === true;
  useEffect(() => {
    if (!editable) return;
    void Editor.preload();
    void Changes.preload();
  }, [editable]);
  // The typed-name step's instruction: its field's label, and why Approve cannot act yet.
  const instruction = useId();
  // The tool's own review (its renderer's `review`), when the app registered one: it takes the
  // place of the tree and of the generic editor, and edits through the same path.
  const review = useToolRenderer(view?.toolName ?? '')?.review;
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
      <DefinitionChanged />
      <Facts />
      {review ? (
        <ToolOwnReview review={review} />
      ) : editing ? (
        // Until the editor is there (only if Edit came before it loaded), the arguments hold its place.
        <Suspense fallback={<ConfirmToolDialogArguments schema={schema} />}>
          <Editor.Part />
        </Suspense>
      ) : (
        <ConfirmToolDialogArguments schema={schema} />
      )}
      <Edited ownReview={review !== undefined} />
      <Result />
      <StatusLine />
      <Alert />
      <ReviewFields instruction={instruction} />
      <Actions instruction={instruction} ownReview={review !== undefined} />
    </>
  );
}

/** A tool's own review, given the request and the dialog's edit path (open the edit, then submit). */
function ToolOwnReview({ review: Review }: { review: ToolReview }) {
  const { view, actions } = useConfirmToolDialog();
  const submitEdit = useCallback(
    (draft: unknown) => {
      actions.edit();
      return actions.submitEdit(draft);
    },
    [actions],
  );
  if (view === null) return null;
  return <Review request={view} submitEdit={submitEdit} />;
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

/** Who answered the request when it was not a person looking at it: a rule (a standing grant's among them, named), or a list decided together. */
function Decider() {
  const { view, labels } = useConfirmToolDialog();
  const decider = view?.decidedBy;
  if (!view || !decider || decider.by === 'person') return null;
  const text =
    decider.by === 'rule'
      ? labels.confirm.answeredByRule(decider.decision, decider.label ?? decider.ruleId)
      : labels.confirm.answeredByBatch(decider.size, formatNumber(decider.size, labels.all.locale));
  const rule = decider.by === 'rule' ? decider : undefined;
  return (
    <p className="toolgate-confirm-decider" data-grant={rule?.origin === 'grant' ? rule.ruleId : undefined} data-rule={rule?.ruleId}>
      {text}
    </p>
  );
}

/**
 * A standing grant of this tool did not answer the request because the tool's definition changed
 * since the grant was given: the person is asked again and told which parts changed
 * (docs/guarantees.md, "Standing grants are bound to the tool's definition").
 */
function DefinitionChanged() {
  const { view, labels } = useConfirmToolDialog();
  const change = view?.definitionChanged;
  if (!view || !change || !view.can.deny) return null;
  const parts = change.parts.map((part) => labels.confirm.definitionPart[part]).join(', ');
  return (
    <p className="toolgate-confirm-definition-changed" role="note" data-parts={change.parts.join(' ')}>
      {labels.confirm.definitionChanged(change.grant.decision, parts)}
    </p>
  );
}

/** After a saved edit: what it means, the changes from the proposed arguments, and the way back to them. */
function Edited({ ownReview }: { ownReview: boolean }) {
  const { view, editing, reviewing, actions, labels } = useConfirmToolDialog();
  if (view === null || !view.edited || (editing && !ownReview)) return null;
  const back = reviewing && view.can.edit;
  return (
    <>
      <p className="toolgate-confirm-edited">{labels.confirm.edited}</p>
      {/* A tool's own review shows what changed in its own terms. */}
      {!ownReview && (
        <Suspense fallback={null}>
          <Changes.Part />
        </Suspense>
      )}
      {back && (
        <p className="toolgate-confirm-more">
          <FocusedActionButton enabled onAct={() => {
            // Through the editor, as any edit: the proposed snapshot is checked and fingerprinted again.
            if (actions.edit()) void actions.submitEdit(view.original);
          }}>
            {labels.confirm.useProposed}
          </FocusedActionButton>
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

/** `invokeTool`'s own response, once done (a trace is not a receipt: docs/protocol.md, "Rooms"). */
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
  // An expiry is said and shown once, by the alert: the status line would say it a second time.
  return (
    <p role="status" className="toolgate-confirm-status">
      {holding ? labels.confirm.holding : status === 'expired' ? '' : labels.confirm.status[status]}
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

/** The typed-name step, while the review layout shows. */
function ReviewFields({ instruction }: { instruction: string }) {
  const dialog = useConfirmToolDialog();
  const { view, step, labels, reviewing, editing, canApprove } = dialog;
  const ids = { typed: useId() };
  const stepRef = useFocusTarget<HTMLInputElement>('step');
  if (!reviewing || editing || view === null) return null;
  // Typing stops once a person decided: the request has left review.
  const editable = confirmationStatusSets().awaitingDecision.has(dialog.status);
  return (
    <>
      {step === 'type-name' && (
        <div className="toolgate-confirm-field">
          <label id={instruction} htmlFor={ids.typed}>
            {labels.confirm.typeToConfirm(view.toolName, labels.confirm.approve)}
          </label>
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
          {/* Present from the start and empty until the name matches, so the enabling is heard once. */}
          <p className="toolgate-sr-only" aria-live="polite" aria-atomic="true">
            {canApprove && editable ? labels.confirm.typedNameReady(labels.confirm.approve) : ''}
          </p>
        </div>
      )}
    </>
  );
}

/**
 * The reason a deny gives the agent (every path the kit ships passes it on to the model:
 * docs/protocol.md, `tool.approval`). In the row of Deny and Approve, before them: on a wide
 * dialog it takes no height of its own, on a narrow one it wraps above them, and the arguments
 * box gives up the room, so the buttons stay on screen. Only while a deny can still be given:
 * not in flight, not after an outcome or an expiry (the review layout is gone then anyway).
 */
function DenyReasonField() {
  const dialog = useConfirmToolDialog();
  const id = useId();
  if (!dialog.denyWithReason || !confirmationStatusSets().awaitingDecision.has(dialog.status)) return null;
  return (
    <div className="toolgate-confirm-field toolgate-confirm-deny-reason">
      <label htmlFor={id}>{dialog.labels.confirm.denyReason}</label>
      <input id={id} value={dialog.reason} autoComplete="off" onChange={(event) => dialog.setReason(event.target.value)} />
    </div>
  );
}

/**
 * Deny and Approve while reviewing (none while the editor is open: its Cancel editing and Save are
 * the one row of actions); Close, Check and Retry after an outcome.
 */
function Actions({ instruction, ownReview }: { instruction: string; ownReview: boolean }) {
  const { view, status, reviewing, editing, step, canApprove, labels, focusFirst } = useConfirmToolDialog();
  const hint = useId();
  // Leaving the editor (saved or cancelled): focus goes back to Edit, never lost to the page. A
  // tool's own review edits in place, where the focus already is.
  const wasEditing = useRef(editing);
  useEffect(() => {
    if (wasEditing.current && !editing && !ownReview) focusFirst('edit', 'deny');
    wasEditing.current = editing;
  }, [editing, focusFirst, ownReview]);
  if (!reviewing) {
    return (
      <div className="toolgate-confirm-actions">
        <OutcomeActions />
      </div>
    );
  }
  if (editing && !ownReview) return null;
  // Approve says why it cannot act yet: the hold's instructions, or the typed name still missing.
  const why = step === 'hold' ? hint : step === 'type-name' && !canApprove ? instruction : undefined;
  return (
    <>
      {step === 'hold' && (
        <p id={hint} className="toolgate-confirm-hint">
          {labels.confirm.holdHint(labels.confirm.approve)}
        </p>
      )}
      <MoreActions ownReview={ownReview} />
      {!editing && <ConfirmDecideInstead />}
      <div className="toolgate-confirm-actions">
        <DenyReasonField />
        <ConfirmToolDialogDeny />
        <ConfirmToolDialogApprove aria-describedby={why} />
      </div>
    </>
  );
}

/** Edit the arguments, and the standing grants: "Deny for this session", "Allow for this session" (or why it is not offered). */
function MoreActions({ ownReview }: { ownReview: boolean }) {
  const dialog = useConfirmToolDialog();
  const { view, offerGrants, actions, labels, reason: typedReason, denyWithReason } = dialog;
  const refused = useId();
  // A tool's own review is its editor: no second one.
  const editable = view !== null && view.editable && !ownReview;
  if (view === null || (!editable && !offerGrants)) return null;
  const refusal = view.grantRefusal;
  const reason = denyWithReason && typedReason.trim() !== '' ? typedReason.trim() : undefined;
  return (
    <div className="toolgate-confirm-more">
      {editable && (
        <FocusedActionButton focus="edit" className="toolgate-confirm-edit" enabled={view.can.edit} onAct={actions.edit}>
          {labels.confirm.edit}
        </FocusedActionButton>
      )}
      {offerGrants && (
        <>
          <FocusedActionButton className="toolgate-confirm-deny-session" enabled={view.can.denyForSession} onAct={() => actions.denyForSession(reason)}>
            {labels.confirm.denyForSession}
          </FocusedActionButton>
          <FocusedActionButton
            className="toolgate-confirm-allow-session"
            enabled={view.can.allowForSession}
            onAct={actions.allowForSession}
            describedBy={refusal !== null ? refused : undefined}
          >
            {labels.confirm.allowForSession}
          </FocusedActionButton>
          {refusal !== null && (
            <p id={refused} className="toolgate-confirm-hint">
              {labels.confirm.grantRefused[refusal]}
            </p>
          )}
        </>
      )}
      {offerGrants && <ScopedGrants />}
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
      <FocusedActionButton focus="close" enabled={closable} onAct={close}>
        {labels.confirm.close}
      </FocusedActionButton>
      {showCheck && (
        <FocusedActionButton focus="check" className="toolgate-confirm-check" enabled={view.can.check} onAct={actions.check}>
          {labels.confirm.check}
        </FocusedActionButton>
      )}
      {showRetry && (
        <FocusedActionButton className="toolgate-confirm-retry" enabled={view.can.retry} onAct={actions.retry}>
          {uncertainWrite ? labels.confirm.retryUncertain : labels.confirm.retry}
        </FocusedActionButton>
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
        <FocusedActionButton focus="close" enabled onAct={close}>
          {labels.confirm.close}
        </FocusedActionButton>
      </div>
    </>
  );
}

interface FocusedActionButtonProps {
  enabled: boolean;
  onAct: () => void;
  /** The focus rule it answers to, if any. */
  focus?: FocusTarget;
  className?: string;
  /** The id of what says why it cannot act. */
  describedBy?: string | undefined;
  children: ReactNode;
}

/** An {@link ActionButton} of the dialog, given to the dialog's focus rules as `focus`. */
function FocusedActionButton({ focus, describedBy, ...props }: FocusedActionButtonProps) {
  const ref = useFocusTarget<HTMLButtonElement>(focus);
  return <ActionButton {...props} ref={ref} aria-describedby={describedBy} />;
}
