/**
 * The line under a request's title that names the call it is part of: a sub-agent's call is
 * approved knowing which tool's work it is (a refund asked for by `research` reads differently
 * from one the person asked for).
 */
import { useConfirmToolDialog } from './confirm-dialog-context';

/** "Part of research (call call_1)" for a nested call's request; nothing for any other. */
export function ConfirmParentLine() {
  const { view, labels } = useConfirmToolDialog();
  const parent = view?.parent;
  if (!parent) return null;
  return (
    <p className="toolgate-confirm-parent" data-parent-call-id={parent.callId}>
      {labels.confirm.partOf(parent.toolName, parent.callId)}
    </p>
  );
}
