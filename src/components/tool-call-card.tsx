import { forwardRef, memo, useId, useMemo, useRef, type ComponentPropsWithoutRef, type MutableRefObject } from 'react';
import type { ToolStreamStore } from '../core/stream/store';
import { formatJsonPath, sameJson } from '../core/json/json-diff';
import type { ToolCall } from '../core/stream/tool-call';
import { callOutcome, formatDuration, outcomeText, useLabels } from '../wording/labels';
import { isTerminalStatus } from '../core/stream/call-lifecycle';
import { systemClock, type ToolgateClock } from '../hooks/use-now';
import { useAppToolCall } from '../hooks/use-app-tool-call';
import { useSteadyCall } from '../hooks/use-steady-call';
import { useToolCall } from '../hooks/use-tool-call';
import { useShownApproval, type ShownApproval } from '../hooks/use-shown-approval';
import { ArgumentsPreview, type ArgumentsSchema } from './arguments-preview';
import { cx } from './cx';
import { ElapsedTime } from './elapsed-time';
import { ToolCallOutput } from './tool-call-output';
import { ToolCallApproval, ToolCallInput } from './tool-call-parts';
import type { ToolgateLabels } from '../wording/labels';
import type { AppCallStatus } from '../core/app-tools/types';
import { ToolProgress } from './tool-progress';
import { ToolStatusBadge } from './tool-status-badge';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';

/**
 * Props of {@link ToolCallCard}.
 *
 * @example
 * <ToolCallCard callId="c1" schema={searchTool.parameters} className="my-card" />
 */
export interface ToolCallCardProps extends Omit<ComponentPropsWithoutRef<'article'>, 'children'> {
  callId: string;
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** The tool's JSON Schema, for field labels and pending required fields. */
  schema?: ArgumentsSchema | undefined;
  /** The JSON Schema of the tool's output, for the output's field labels. */
  outputSchema?: ArgumentsSchema | undefined;
  /** The clock for the running time of an open call (the store's, if it has its own). */
  clock?: ToolgateClock;
  /** Show a call that starts and ends within a frame or two by its end only (default: the provider's `steady`). */
  steady?: boolean;
}

/**
 * One call: its name, status, live arguments, progress, result code, time taken, and how it
 * ended (cancelled by whom, a late outcome after a cancel, the model's reason for stopping, a
 * failure's message); its output as a tree (a preliminary one marked, a large one collapsed); while it waits for a person, Approve and Deny
 * (`<ToolCallApproval>`) or the tool's own input (`<ToolCallInput>`).
 * Re-renders only when its own call changes. Renders nothing for an unknown call id.
 *
 * @example
 * <ToolCallCard callId="call-1" schema={tools.search.parameters} />
 */
export const ToolCallCard = memo(
  forwardRef<HTMLElement, ToolCallCardProps>(function ToolCallCard({ callId, store, schema, outputSchema, clock, steady, className, ...rest }, ref) {
    // Held steady: a call that starts and ends within a frame or two shows its end only (use-steady-call.ts).
    const call = useSteadyCall(useToolCall(callId, store), steady);
    // For an app tool this page ran, its own answer says why it failed when the server's settled does not.
    const { call: appCall, result: appResult } = useAppToolCall(callId);
    const labels = useLabels();
    const nameId = useId();
    // The call's approval record (inside a provider), else the call's fields mirrored from it.
    const shown = useShownApproval(call, store);
    // The same elements on every render: these parts read their own stores, so a fragment of the
    // arguments does not render them again.
    const parts = useMemo(
      () => (
        <>
          <ToolCallOutput callId={callId} store={store} schema={outputSchema} />
          <ToolCallApproval callId={callId} showStatus={false} />
          <ToolCallInput callId={callId} />
        </>
      ),
      [callId, store, outputSchema],
    );
    // Written after every render (the call changed): the running time read now, not at the last tick.
    const refreshElapsed = useRef<(() => void) | undefined>(undefined);
    useIsomorphicLayoutEffect(() => refreshElapsed.current?.());
    if (!call) return null;
    const { status } = call;
    const message = call.message ?? (appResult?.ok === false ? appResult.message : undefined);
    // The header and the notes are memoised on the fields they show, so a fragment of the
    // arguments (the change that comes a hundred times a second) renders the preview alone.
    return (
      <article
        {...rest}
        ref={ref}
        aria-labelledby={nameId}
        className={cx('toolgate-card', className)}
        data-status={status}
        data-outcome={callOutcome(call)}
        data-code={call.code}
        data-approval={shown.approval}
        data-source={call.source}
      >
        <CardHeader
          nameId={nameId}
          name={call.name}
          status={status}
          ok={call.ok}
          code={call.code}
          location={call.location}
          risk={call.risk}
          source={call.source}
          startedAt={call.startedAt}
          endedAt={call.endedAt}
          approval={shown.approval}
          appStatus={appCall?.status}
          clock={clock ?? systemClock}
          refreshElapsed={refreshElapsed}
          labels={labels}
        />
        <ArgumentsPreview
          value={call.partialArguments}
          path={call.writingPath}
          schema={schema}
          complete={status !== 'pending' && status !== 'streaming'}
          error={call.argumentsError}
          text={call.argumentsText}
        />
        <CardNotes
          status={status}
          name={call.name}
          arguments={call.arguments}
          argumentsMismatch={call.argumentsMismatch}
          duplicateKeyPath={call.duplicateKeyPath}
          answeredBy={call.answeredBy}
          progress={call.progress}
          code={call.code}
          message={call.message}
          resultMessage={status === 'settled' ? message : undefined}
          cancelledBy={call.cancelledBy}
          lateOutcome={call.lateOutcome}
          shown={shown}
          labels={labels}
        />
        {parts}
      </article>
    );
  }),
);

type HeaderFields = Pick<ToolCall, 'name' | 'status' | 'ok' | 'code' | 'location' | 'risk' | 'source' | 'startedAt' | 'endedAt'>;

/** The card's header: name, status, where it runs, its risk, and its time (taken or so far). */
const CardHeader = memo(function CardHeader({
  nameId,
  approval,
  appStatus,
  clock,
  refreshElapsed,
  labels,
  ...call
}: HeaderFields & {
  nameId: string;
  approval: ShownApproval['approval'];
  appStatus: AppCallStatus | undefined;
  clock: ToolgateClock;
  refreshElapsed: MutableRefObject<(() => void) | undefined>;
  labels: ToolgateLabels;
}) {
  const { status } = call;
  return (
    <header className="toolgate-card-header">
      <span id={nameId} className="toolgate-card-name">
        {call.name}
      </span>
      <ToolStatusBadge status={status} ok={call.ok} code={call.code} approval={approval} appStatus={appStatus} />
      {call.location && <span className="toolgate-chip">{labels.location[call.location]}</span>}
      {call.risk && (
        <span className="toolgate-chip" data-risk={call.risk}>
          {labels.risk[call.risk]}
        </span>
      )}
      {call.source === 'preview' && <span className="toolgate-chip">{labels.legacyPreview}</span>}
      {/* No running time while a person decides: the call has not started, and a ticking clock would hurry them. */}
      {call.startedAt !== undefined &&
        (isTerminalStatus(status) ? (
          call.endedAt !== undefined && <span className="toolgate-card-time">{labels.took(formatDuration(Math.max(0, call.endedAt - call.startedAt), labels.locale))}</span>
        ) : (
          // Open: the running time is written by a shared timer, not by rendering the card each second.
          approval !== 'awaiting' && <ElapsedTime startedAt={call.startedAt} clock={clock} labels={labels} refresh={refreshElapsed} />
        ))}
    </header>
  );
});

type NoteFields = Pick<
  ToolCall,
  'status' | 'name' | 'arguments' | 'argumentsMismatch' | 'duplicateKeyPath' | 'answeredBy' | 'progress' | 'code' | 'message' | 'cancelledBy' | 'lateOutcome'
>;

/** What the card says below the arguments: warnings, who answered, progress, the result, how it ended. */
const CardNotes = memo(function CardNotes({ resultMessage, shown, labels, ...call }: NoteFields & { resultMessage: string | undefined; shown: ShownApproval; labels: ToolgateLabels }) {
  const { status, lateOutcome: late } = call;
  return (
    <>
      <ArgumentsWarnings call={call} labels={labels} />
      <RanArguments call={call} shown={shown} labels={labels} />
      <AnsweredByRule shown={shown} labels={labels} />
      <ApprovalEnded shown={shown} labels={labels} />
      <DecidedInstead call={call} shown={shown} labels={labels} />
      {status === 'issued' && call.progress !== undefined && <ToolProgress progress={call.progress} />}
      {call.code !== undefined && <ResultNote code={call.code} message={resultMessage} labels={labels} />}
      {call.cancelledBy && shown.approval !== 'cancelled' && (
        <p className="toolgate-card-note" data-cancelled={call.cancelledBy}>
          <span className="toolgate-card-state">{labels.cancelledBy[call.cancelledBy]}</span> <span>{labels.cancelledWhy[call.cancelledBy]}</span>
        </p>
      )}
      {late && (
        <p className="toolgate-card-note" data-outcome={late.ok ? 'ok' : 'error'} data-late="">
          {labels.lateOutcome(outcomeText(labels, late.ok, late.code))}
        </p>
      )}
      {status === 'failed' && (
        <p className="toolgate-card-note" data-stopped="">
          {labels.modelStopped} <span>{call.message}</span> <span>{labels.stoppedWhy}</span>
        </p>
      )}
    </>
  );
});

/**
 * A result code in words: what it means, the result's message, what a person can do next, and
 * the code itself, small, last (for whoever reports the problem).
 */
function ResultNote({ code, message, labels }: { code: string; message: string | undefined; labels: ToolgateLabels }) {
  const known = Object.hasOwn(labels.explain, code) ? (code as keyof ToolgateLabels['explain']) : undefined;
  const next = known ? labels.next[known] : '';
  return (
    <p className="toolgate-card-note" data-result="" data-code={code}>
      <span className="toolgate-card-explain">{known ? labels.explain[known] : labels.explainUnknown(code)}</span>
      {message !== undefined && (
        <>
          {' '}
          {labels.resultMessage} <span className="toolgate-card-message">{message}</span>
        </>
      )}
      {next !== '' && (
        <>
          {' '}
          <span className="toolgate-card-next">{next}</span>
        </>
      )}{' '}
      <span className="toolgate-card-code">
        {labels.resultCode} <code>{code}</code>
      </span>
    </p>
  );
}

/**
 * What the card warns of about the arguments (docs/protocol.md, "Rules of the stream"): final arguments that contradict
 * the text streamed before them, and a key written twice (the preview showed the first value,
 * the arguments end with the last). Text, as a note, so it is read out with the card.
 */
function ArgumentsWarnings({ call, labels }: { call: Pick<ToolCall, 'argumentsMismatch' | 'duplicateKeyPath'>; labels: ToolgateLabels }) {
  if (!call.argumentsMismatch && call.duplicateKeyPath === undefined) return null;
  return (
    <>
      {call.argumentsMismatch && (
        <p className="toolgate-card-warning" role="note" data-warning="arguments-mismatch">
          {labels.argumentsMismatch}
        </p>
      )}
      {call.duplicateKeyPath !== undefined && (
        <p className="toolgate-card-warning" role="note" data-warning="duplicate-key">
          {labels.duplicateKey(formatJsonPath(call.duplicateKeyPath, '(the arguments)'))}
        </p>
      )}
    </>
  );
}

/**
 * A call a rule answered, with nobody looking at it: the card names the rule ("Allowed by …",
 * docs/architecture.md "Policies"), a standing grant's as any other (docs/protocol.md, "On the card").
 */
function AnsweredByRule({ shown, labels }: { shown: ShownApproval; labels: ToolgateLabels }) {
  if (shown.approvalBy !== 'rule' || shown.approvalRuleId === undefined || (shown.approval !== 'approved' && shown.approval !== 'denied')) return null;
  return (
    <p className="toolgate-card-note" data-rule={shown.approvalRuleId} data-grant={shown.approvalGrant}>
      {labels.confirm.answeredByRule(shown.approval === 'approved' ? 'allow' : 'deny', shown.approvalRuleLabel ?? shown.approvalRuleId)}
    </p>
  );
}

/**
 * A call a person decided without running it (docs/protocol.md "Decisions"): answered in the
 * tool's place (the `settled` event said so, or the page's own mark), or withdrawn (not rejected).
 */
function DecidedInstead({ call, shown, labels }: { call: Pick<ToolCall, 'answeredBy'>; shown: ShownApproval; labels: ToolgateLabels }) {
  if (call.answeredBy === 'person' || shown.approval === 'responded') {
    return (
      <p className="toolgate-card-note" data-answered-by="person">
        {labels.answeredByPerson}
      </p>
    );
  }
  if (shown.approval !== 'cancelled') return null;
  return (
    <p className="toolgate-card-note" data-approval="cancelled">
      <span className="toolgate-card-state">{labels.withdrawn}</span> <span>{labels.withdrawnWhy}</span>
      {shown.approvalReason !== undefined && (
        <>
          {' '}
          <span className="toolgate-card-message">{shown.approvalReason}</span>
        </>
      )}
    </p>
  );
}

/**
 * A call whose approval ended without running it: the server refused the page's answer, or the
 * request expired first. The card follows the server's last word (docs/guarantees.md), with its reason.
 */
function ApprovalEnded({ shown, labels }: { shown: ShownApproval; labels: ToolgateLabels }) {
  const approval = shown.approval;
  if (approval !== 'refused' && approval !== 'expired') return null;
  return (
    <p className="toolgate-card-note" data-approval={approval}>
      {labels.approvalEnded[approval]}
      {shown.approvalReason !== undefined && (
        <>
          {' '}
          <span className="toolgate-card-message">{shown.approvalReason}</span>
        </>
      )}
    </p>
  );
}

/**
 * For a settled call whose arguments were edited by a person or rewritten by the server's gate,
 * the arguments that ran (`approvedArguments`), marked as such (docs/protocol.md, "On the card").
 */
function RanArguments({ call, shown, labels }: { call: Pick<ToolCall, 'status' | 'arguments'>; shown: ShownApproval; labels: ToolgateLabels }) {
  const ran = shown.approvedArguments;
  if (call.status !== 'settled' || ran === undefined || sameJson(ran, call.arguments)) return null;
  const how = shown.approvalEdited ? 'edited' : 'rewritten';
  return (
    <div className="toolgate-card-ran" data-ran={how}>
      <span className="toolgate-card-ran-label">
        {labels.ranArguments} <span className="toolgate-chip" data-ran={how}>{shown.approvalEdited ? labels.argumentsEdited : labels.argumentsRewritten}</span>
      </span>
      <ArgumentsPreview value={ran} complete aria-label={labels.ranArguments} />
    </div>
  );
}
