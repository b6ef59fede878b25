/**
 * What a person approved is bound to what they were shown: the tool's name and the snapshot of
 * its arguments. Before an answer leaves (the dialog, a list's "Approve all", a standing grant, a
 * room's confirmation, a bridge), the call as its source holds it now is checked against what was
 * shown; a difference means the call changed after it was shown, and nothing is answered
 * (docs/guarantees.md, "Bound to the tool and the arguments"; docs/architecture.md, "Where each rule lives").
 */
import { canonicalJson } from '../json/canonical-json';
import type { JsonValue } from '../json/json-value';

/** The call as its source holds it now: its tool's name, and its input where the source keeps it. */
export interface HeldCall {
  toolName: string | undefined;
  /** Omitted when the source keeps no input to compare (only the name is checked). */
  input?: unknown;
}

/** What was shown to the person. */
export interface ShownCall {
  toolName: string;
  arguments: JsonValue;
}

/** The error code every path reports a mismatch with (`onError(reason, detail, 'approval-mismatch')`). */
export const APPROVAL_MISMATCH = 'approval-mismatch';

// By canonical JSON, not the structural `sameJson` of json-diff.ts: what a bridge holds is any value,
// and one with no canonical form (a function, `undefined`, a cycle) must count as changed, never as
// the same by identity. Fails closed.
const sameCanonicalJson = (a: unknown, b: JsonValue): boolean => {
  try {
    return canonicalJson(a as JsonValue) === canonicalJson(b);
  } catch {
    return false;
  }
};

/**
 * How the held call differs from the shown one: `'tool'` when it names another tool (checked
 * first: other arguments of another tool mean nothing), `'arguments'` when its input differs,
 * `undefined` when it is what the person saw.
 */
export function changedSinceShown(shown: ShownCall, held: HeldCall): 'tool' | 'arguments' | undefined {
  if (held.toolName !== shown.toolName) return 'tool';
  if ('input' in held && !sameCanonicalJson(held.input, shown.arguments)) return 'arguments';
  return undefined;
}

/** The words of a tool-name mismatch: what was shown, what the call names now, and that nothing was answered. */
export function toolMismatchReason(callId: string | undefined, shown: string, now: string | undefined): string {
  const call = callId === undefined ? 'the call' : `tool call ${callId}`;
  return `${APPROVAL_MISMATCH}: ${call} was shown as ${shown} but now names ${String(now)}; nothing was approved or answered`;
}
