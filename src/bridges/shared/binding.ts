/**
 * What a person approved is bound to what they were shown: the tool's name and the snapshot of
 * its arguments. Before an answer leaves a bridge, the library's own record of the call (the
 * chat's tool part, the agent's message) is checked against both; a difference means the call
 * changed after it was shown (docs/guarantees.md, "Bridges").
 */
import { canonicalJson, type JsonValue } from '../../core';

/** The call as the library holds it now: its tool's name, and its input where the library keeps it. */
export interface HeldCall {
  toolName: string | undefined;
  /** Omitted when the library keeps no input to compare (only the name is checked). */
  input?: unknown;
}

/** What was shown to the person. */
export interface ShownCall {
  toolName: string;
  arguments: JsonValue;
}

const sameJson = (a: unknown, b: JsonValue): boolean => {
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
  if ('input' in held && !sameJson(held.input, shown.arguments)) return 'arguments';
  return undefined;
}
