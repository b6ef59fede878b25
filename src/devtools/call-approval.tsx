/**
 * Where a call stands with its approval, from the three places that know: the call's own fields
 * (the page's mark), the confirmation controller (a request still waiting, and who decided it),
 * and the page's answers (`tool.approval`: the decision, whether a grant answered it).
 */
import { useSyncExternalStore } from 'react';
import type { ConfirmationController, ConfirmationView, ToolCall } from '../core';
import type { DevtoolsEntry } from './recorder';
import { styles } from './devtools-styles';

/** Props of {@link CallApprovalView}. */
export interface CallApprovalViewProps {
  readonly call: ToolCall | undefined;
  /** The live controller; absent for an imported recording. */
  readonly approvals?: ConfirmationController | undefined;
  /** The call's entries: its approval answers are read from them. */
  readonly steps: readonly DevtoolsEntry[];
}

const none = () => () => {};
const nothing = () => undefined;

function requestOf(controller: ConfirmationController | undefined, callId: string | undefined): ConfirmationView | undefined {
  if (controller === undefined || callId === undefined) return undefined;
  const state = controller.getState();
  const views = state.current ? [state.current, ...state.queue] : state.queue;
  return views.find((view) => view.callId === callId);
}

/**
 * The approval part of a call's history.
 *
 * @example
 * <CallApprovalView call={call} approvals={client.approvals} steps={steps} />
 */
export function CallApprovalView({ call, approvals, steps }: CallApprovalViewProps) {
  const request = useSyncExternalStore(
    approvals?.subscribe ?? none,
    approvals === undefined ? nothing : () => requestOf(approvals, call?.callId),
    nothing,
  );
  const answers = steps.filter((entry) => entry.type === 'answer/tool.approval').map((entry) => entry.payload as Record<string, unknown>);
  const mark = call?.approval;
  if (mark === undefined && request === undefined && answers.length === 0) {
    return (
      <section style={styles.section} aria-label="Approval">
        <h4 style={styles.h3}>Approval</h4>
        <p style={styles.muted}>No approval involved.</p>
      </section>
    );
  }
  const decidedBy =
    call?.approvalGrant !== undefined
      ? `the standing grant ${call.approvalGrant}`
      : answers.some((answer) => answer['automatic'] === true)
        ? 'a rule or grant (automatic)'
        : request?.decidedBy
          ? request.decidedBy.by
          : mark === 'approved' || mark === 'denied'
            ? 'a person'
            : undefined;
  return (
    <section style={styles.section} aria-label="Approval">
      <h4 style={styles.h3}>Approval</h4>
      <dl style={{ margin: 0 }}>
        <dt style={styles.muted}>Status</dt>
        <dd style={{ margin: 0 }}>{mark ?? (request ? `request ${request.status}` : 'answered')}</dd>
        {decidedBy !== undefined && (
          <>
            <dt style={styles.muted}>Decided by</dt>
            <dd style={{ margin: 0 }}>{decidedBy}</dd>
          </>
        )}
        {call?.approvalReason !== undefined && (
          <>
            <dt style={styles.muted}>Reason</dt>
            <dd style={{ margin: 0 }}>{call.approvalReason}</dd>
          </>
        )}
        {call?.approvalEdited === true && (
          <>
            <dt style={styles.muted}>Edited</dt>
            <dd style={{ margin: 0 }}>yes: what runs is the person’s edit</dd>
          </>
        )}
        {request?.fingerprint && (
          <>
            <dt style={styles.muted}>Fingerprint shown</dt>
            <dd style={{ margin: 0 }}>{request.fingerprint.short}</dd>
          </>
        )}
        {answers.map((answer, i) => (
          <div key={i}>
            <dt style={styles.muted}>Answer sent</dt>
            <dd style={{ margin: 0 }}>
              {`${String(answer['decision'] ?? (answer['approved'] === true ? 'approve' : 'deny'))}${answer['automatic'] === true ? ' (automatic)' : ''}${typeof answer['reason'] === 'string' ? `: ${answer['reason']}` : ''}`}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
