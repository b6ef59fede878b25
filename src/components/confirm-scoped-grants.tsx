/**
 * The scoped grants the dialog offers beside "Allow for this session", where the controller has a
 * policy: this tool for the turn, an hour or the session, or only when one argument has this
 * value. Each button says, before it is pressed, which of the requests waiting it would also
 * answer (how many, and their tools), by the policy's own evaluation. Pressing one approves the
 * request shown (the person's decision) and keeps the rule, which answers the others.
 */
import { useId } from 'react';
import { scopedGrantCandidates, type ScopedGrantCandidate } from '../core/approval/approval-policy';
import { formatNumber } from '../wording/labels';
import { ActionButton } from './action-button';
import { useConfirmToolDialog } from './confirm-dialog-context';

/** The scoped grants of the shown request; nothing without a policy, or for a request that takes no allow grant. */
export function ScopedGrants() {
  const { view, controller, labels, clock } = useConfirmToolDialog();
  const id = useId();
  if (view === null || controller === null || controller.policy === undefined || !view.can.allowForSession) return null;
  const candidates = scopedGrantCandidates(view, clock.now());
  if (candidates.length === 0) return null;
  const heading = `${id}-heading`;
  return (
    <div className="toolgate-confirm-scoped" role="group" aria-labelledby={heading}>
      <p id={heading} className="toolgate-confirm-scoped-heading">
        {labels.confirm.scopedGrants}
      </p>
      <ul className="toolgate-confirm-scoped-list">
        {candidates.map((candidate, index) => {
          const previewId = `${id}-${index}`;
          const answers = controller.previewRule(candidate.rule);
          const names = answers.map((request) => request.toolName).join(', ');
          return (
            <li key={candidate.rule.id.replace(/-\d+$/, '')} className="toolgate-confirm-scoped-grant" data-scope={candidate.scope}>
              <ActionButton
                className="toolgate-confirm-scoped-allow"
                enabled={view.can.allowForSession}
                // Made again when pressed: the rule's hour runs from the press, not from the render.
                onAct={() => {
                  const fresh = scopedGrantCandidates(view, clock.now())[index];
                  // Labelled in the person's words: the grant list and the cards it answers name it so.
                  if (fresh !== undefined) controller.allowByRule({ ...fresh.rule, label: labelOf(fresh, labels.confirm.scopedGrantRule) }, { requestId: view.id });
                }}
                aria-describedby={previewId}
              >
                {labelOf(candidate, labels.confirm.scopedGrant)}
              </ActionButton>
              <span id={previewId} className="toolgate-confirm-hint" data-answers={answers.length}>
                {labels.confirm.scopedGrantPreview(answers.length, formatNumber(answers.length, labels.all.locale), names)}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function labelOf(candidate: ScopedGrantCandidate, say: (toolName: string, scope: ScopedGrantCandidate['scope'], argument?: string, value?: string) => string): string {
  const toolName = candidate.rule.tools[0] ?? '';
  if (candidate.argument === undefined) return say(toolName, candidate.scope);
  return say(toolName, candidate.scope, candidate.argument.name, JSON.stringify(candidate.argument.value));
}
