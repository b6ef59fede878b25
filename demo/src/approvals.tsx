import { useId } from 'react';
import { ConfirmBatch, ToolGrantList } from 'toolgate';
import type { ReferenceSession } from 'toolgate/client';
import { useTurns } from './session-state';

export interface ApprovalsPanelProps {
  session: ReferenceSession;
  /** Several requests are decided together in a list here, instead of one at a time in the dialog. */
  together: boolean;
  onTogetherChange: (together: boolean) => void;
}

/**
 * The standing grants (each with Revoke), and a switch between deciding requests one at a time in
 * the dialog and deciding the running turn's pending requests together in a list.
 */
export function ApprovalsPanel({ session, together, onTogetherChange }: ApprovalsPanelProps) {
  const id = useId();
  const { active } = useTurns(session);
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Approvals</h2>
      <ToolGrantList />
      <label className="field">
        <input type="checkbox" checked={together} onChange={(event) => onTogetherChange(event.target.checked)} /> Decide a turn’s requests together in a
        list
      </label>
      {together && <ConfirmBatch {...(active === undefined ? {} : { turnId: active.turnId })} />}
    </section>
  );
}
