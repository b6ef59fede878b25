/**
 * Several requests decided at once: one list of the pending requests (of a turn), each with its
 * arguments and fingerprint, and "Approve all N" / "Deny all N" that decide exactly the N listed.
 * A request that must be reviewed alone (a high-risk tool, one whose risk is not declared, one
 * confirmed every time) is never in that list: it is listed apart, with a button that brings it to
 * the dialog (docs/guarantees.md, "Several at once").
 */
import { forwardRef, useEffect, useId, useMemo, useRef, useState, type ComponentPropsWithoutRef } from 'react';
import { confirmationStatusSets } from '../core/approval/confirmation-machine';
import type { ConfirmationState, ConfirmationView } from '../core/approval/confirmation-types';
import type { ConfirmationController, ConfirmationPick } from '../core/approval/confirmation-controller-types';
import { defaultConfirmLabels, mergeConfirmLabels, type ConfirmToolLabels } from '../wording/confirm-labels';
import { formatNumber, useLabels, type ToolgateLabels } from '../wording/labels';
import { systemClock, type ToolgateClock } from '../hooks/use-now';
import { useToolConfirmation } from '../hooks/use-tool-confirmation';
import { ArgumentsPreview } from './arguments-preview';
import { composeHandlers, ignoreRepeat } from './confirm-dialog-context';
import { TimeLeftText, useTimeLeft } from './confirm-expiry';
import { cx } from './cx';

/**
 * Props of {@link ConfirmBatch}.
 *
 * @example
 * const props: ConfirmBatchProps = { turnId: 'turn-7' };
 */
export interface ConfirmBatchProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** Default: the provider's confirmation controller. */
  controller?: ConfirmationController;
  /** Only the requests of this turn (default: every pending request). */
  turnId?: string;
  /** The reason "Deny all" gives each request. */
  denyReason?: string;
  /** The clock the time left before an expiry is shown by (the real one by default). */
  clock?: ToolgateClock;
  /**
   * Told when a person asks to review a request that must be reviewed alone, after the controller
   * brought it to the dialog (`controller.show`): open the dialog here if the page keeps it closed.
   */
  onReview?: (view: ConfirmationView) => void;
}

/** A request the list may show: waiting for a decision nobody has started, with its fingerprint (what is approved is always fingerprinted). */
function pendingOf(state: ConfirmationState, turnId: string | undefined): ConfirmationView[] {
  const all = state.current ? [state.current, ...state.queue] : [...state.queue];
  return all.filter(
    (view) =>
      view.fingerprint !== null &&
      view.can.deny &&
      // Being edited: in a person's hands in the dialog, not decided from a list.
      (view.status === 'idle' || view.status === 'reviewing') &&
      (turnId === undefined || view.turnId === turnId),
  );
}

/**
 * The pending requests (of one turn, with `turnId`) in one list, each with its title, tool,
 * arguments, short fingerprint and time left, and "Approve all N" / "Deny all N", which decide
 * exactly the N requests listed with the fingerprints shown, never one that arrived later: while
 * a person's pointer or focus is in the list, a request that arrives is not added to it (the
 * count under their pointer never grows); a line says how many arrived, and a button shows them.
 * Requests that must be reviewed alone are listed apart, each with "Review", which brings it to
 * the dialog (`controller.show`) where its second step (typed name, hold) is asked.
 * A request decided elsewhere, or expired, leaves the list. A polite status says what was decided.
 *
 * @example
 * <ToolgateProvider session={session}>
 *   <ConfirmBatch turnId={turnId} />
 * </ToolgateProvider>
 */
export const ConfirmBatch = forwardRef<HTMLElement, ConfirmBatchProps>(function ConfirmBatch({ controller, turnId, denyReason, clock = systemClock, onReview, className, ...rest }, ref) {
  const confirmation = useToolConfirmation(controller);
  const confirmations = confirmation.controller;
  const all = useLabels();
  const labels = useMemo(() => mergeConfirmLabels(defaultConfirmLabels, all.confirm), [all.confirm]);
  const heading = useId();
  const state = useMemo(() => ({ current: confirmation.current, queue: confirmation.queue }) as ConfirmationState, [confirmation.current, confirmation.queue]);
  const [pending, alone] = useMemo(() => {
    const all = pendingOf(state, turnId);
    // The same requests that take no allow grant: a list never approves them (docs/guarantees.md).
    return [all.filter((view) => view.grantRefusal === null), all.filter((view) => view.grantRefusal !== null)];
  }, [state, turnId]);
  const aloneHeading = useId();
  // While a person's pointer or focus is in the list, it is frozen: what they see is what they decide.
  const [captured, setCaptured] = useState<readonly string[] | null>(null);
  const [said, setSaid] = useState('');
  const listed = captured === null ? pending : pending.filter((view) => captured.includes(view.id));
  const freeze = (): void => {
    if (captured === null) setCaptured(listed.map((view) => view.id));
  };
  const thaw = (): void => setCaptured(null);
  const arrived = pending.length - listed.length;
  // Exactly what this render shows: the ids, the tools and the fingerprints beside them.
  const picks: readonly ConfirmationPick[] = listed.map((view) => ({
    requestId: view.id,
    toolName: view.toolName,
    fingerprint: (view.fingerprint as NonNullable<ConfirmationView['fingerprint']>).hex,
  }));
  const count = listed.length;
  const n = formatNumber(count, all.locale);
  // Decided, and nothing left: the batch is finished. Its result shows (not only to screen readers),
  // the buttons that can no longer act go, and focus moves from them to the result.
  const finished = said !== '' && count === 0;
  const result = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const element = result.current;
    const active = element?.ownerDocument.activeElement;
    if (finished && element && (!active || active === element.ownerDocument.body || element.closest('section')?.contains(active))) element.focus();
  }, [finished]);

  const approveAll = (): void => {
    if (picks.length === 0) return;
    const approved = confirmations.approveAll(picks);
    setSaid(labels.batchDecided(formatNumber(approved.length, all.locale), formatNumber(0, all.locale)));
  };
  const denyAll = (): void => {
    if (picks.length === 0) return;
    const denied = confirmations.denyAll(picks, denyReason);
    setSaid(labels.batchDecided(formatNumber(0, all.locale), formatNumber(denied.length, all.locale)));
  };

  return (
    <section
      {...rest}
      ref={ref}
      aria-labelledby={heading}
      className={cx('toolgate-batch', className)}
      data-count={count}
      data-state={finished ? 'done' : count === 0 ? 'empty' : 'open'}
      data-frozen={captured === null ? undefined : ''}
      onPointerEnter={composeHandlers(rest.onPointerEnter, freeze)}
      onPointerLeave={composeHandlers(rest.onPointerLeave, (event) => {
        if (!event.currentTarget.contains(event.currentTarget.ownerDocument.activeElement)) thaw();
      })}
      onFocus={composeHandlers(rest.onFocus, freeze)}
      onBlur={composeHandlers(rest.onBlur, (event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null) && !event.currentTarget.matches(':hover')) thaw();
      })}
    >
      <p id={heading} className="toolgate-batch-title">
        {count === 0 ? labels.batchEmpty : labels.batch(count, n)}
      </p>
      {count > 0 && (
        <ol className="toolgate-batch-list">
          {listed.map((view) => (
            <BatchItem key={view.id} view={view} labels={labels} all={all} clock={clock} />
          ))}
        </ol>
      )}
      {arrived > 0 && (
        <p className="toolgate-batch-arrived">
          {labels.batchArrived(arrived, formatNumber(arrived, all.locale))}{' '}
          <button type="button" className="toolgate-button" onKeyDown={ignoreRepeat} onClick={() => setCaptured(pending.map((view) => view.id))}>
            {labels.batchShowArrived}
          </button>
        </p>
      )}
      {alone.length > 0 && (
        <section className="toolgate-batch-alone" aria-labelledby={aloneHeading}>
          <p id={aloneHeading} className="toolgate-batch-title">
            {labels.batchAlone(alone.length, formatNumber(alone.length, all.locale))}
          </p>
          <ul className="toolgate-batch-list">
            {alone.map((view) => (
              <AloneItem
                key={view.id}
                view={view}
                labels={labels}
                onReview={() => {
                  confirmations.show({ requestId: view.id });
                  onReview?.(view);
                }}
              />
            ))}
          </ul>
        </section>
      )}
      {!finished && (
      <div className="toolgate-batch-actions">
        <button type="button" className="toolgate-button toolgate-batch-deny" aria-disabled={count === 0 ? true : undefined} onKeyDown={ignoreRepeat} onClick={denyAll}>
          {labels.denyAll(count, n)}
        </button>
        <button
          type="button"
          className="toolgate-button toolgate-batch-approve"
          aria-disabled={count === 0 ? true : undefined}
          data-danger={listed.some((view) => view.descriptor.risk === 'high') ? '' : undefined}
          onKeyDown={ignoreRepeat}
          onClick={approveAll}
        >
          {labels.approveAll(count, n)}
        </button>
      </div>
      )}
      <p ref={result} role="status" tabIndex={finished ? -1 : undefined} className="toolgate-batch-result">
        {said}
      </p>
    </section>
  );
});

/** A request left out of the list: what it is, why it is reviewed alone, and the button that brings it to the dialog. */
function AloneItem({ view, labels, onReview }: { view: ConfirmationView; labels: ConfirmToolLabels; onReview: () => void }) {
  const title = useId();
  const why = useId();
  const reason = view.grantRefusal === null ? '' : labels.batchAloneReason[view.grantRefusal];
  return (
    <li className="toolgate-batch-item" aria-labelledby={title} data-request={view.id} data-risk={view.descriptor.risk} data-alone={view.grantRefusal ?? undefined}>
      <p id={title} className="toolgate-batch-item-title">
        <strong>{labels.title(view.title, view.toolName)}</strong> <code>{view.toolName}</code>
      </p>
      <p id={why} className="toolgate-batch-alone-reason">
        {reason}
      </p>
      <button type="button" className="toolgate-button toolgate-batch-review" aria-describedby={`${title} ${why}`} onKeyDown={ignoreRepeat} onClick={onReview}>
        {labels.batchReview}
      </button>
    </li>
  );
}

function BatchItem({ view, labels, all, clock }: { view: ConfirmationView; labels: ConfirmToolLabels; all: ToolgateLabels; clock: ToolgateClock }) {
  const title = useId();
  const ended = !confirmationStatusSets().awaitingDecision.has(view.status);
  const left = useTimeLeft(view.expiresAt, ended, view.status === 'expired', clock, labels);
  return (
    <li className="toolgate-batch-item" aria-labelledby={title} data-request={view.id} data-risk={view.descriptor.risk}>
      <p id={title} className="toolgate-batch-item-title">
        <strong>{labels.title(view.title, view.toolName)}</strong> <code>{view.toolName}</code>{' '}
        <span className="toolgate-chip" data-risk={view.descriptor.risk}>
          {all.risk[view.descriptor.risk]}
        </span>
        {view.edited && (
          <>
            {' '}
            <span className="toolgate-chip" data-edited="">
              {labels.editedMark}
            </span>
          </>
        )}
      </p>
      <ArgumentsPreview value={view.arguments} complete tabIndex={0} className="toolgate-batch-args" />
      <p className="toolgate-batch-fingerprint">
        {labels.fingerprint}{' '}
        <code className="toolgate-confirm-fingerprint" data-fingerprint={view.fingerprint?.hex}>
          {view.fingerprint?.short}
        </code>
      </p>
      {view.expiresAt !== null && <TimeLeftText left={left} labels={labels} />}
    </li>
  );
}
