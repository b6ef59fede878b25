/**
 * Checking edited arguments before they may be approved (docs/protocol.md, "Edits, grants and batches": the
 * edited snapshot "is validated again"): they must be JSON with a canonical form (what runs must
 * be what can be shown and fingerprinted), satisfy the request's JSON Schema, and pass its own
 * check (an app tool's validator), whose output is what is approved. Internal to the flow.
 */

import { canonicalJson } from '../json/canonical-json';
import type { ArgumentsCheck, ArgumentsIssue, ConfirmationEditing } from './confirmation-types';
import { describeThrown } from '../external-store';
import type { JsonPathStep } from '../json/json-diff';
import { checkJsonSchema, EDIT_CHECK } from '../json/json-schema-check';
import { snapshotJson, type JsonValue } from '../json/json-value';
import { reasonOf } from '../session/room';

/** A draft that passed: its deep-frozen snapshot and canonical text, or the issues to show. */
export type CheckedDraft = { ok: true; snapshot: JsonValue; canonical: string } | { ok: false; issues: readonly ArgumentsIssue[] };

const issue = (path: readonly JsonPathStep[], message: string): readonly ArgumentsIssue[] => Object.freeze([Object.freeze({ path: Object.freeze([...path]), message })]);

/** Snapshot and canonicalise a value, or say why it cannot be what runs. */
function take(value: unknown): CheckedDraft {
  const snapshot = snapshotJson(value);
  if (!snapshot.ok) return { ok: false, issues: issue([], `The arguments are not JSON: ${snapshot.reason}`) };
  try {
    return { ok: true, snapshot: snapshot.value, canonical: canonicalJson(snapshot.value) };
  } catch (error) {
    return { ok: false, issues: issue([], `The arguments cannot be fingerprinted: ${reasonOf(error)}`) };
  }
}

/**
 * Check a draft: JSON, then the schema, then the request's own check. Never rejects: a check that
 * throws or answers something else is an issue of the whole value, and the editor stays open.
 */
export async function checkDraft(draft: unknown, editing: ConfirmationEditing): Promise<CheckedDraft> {
  const taken = take(draft);
  if (!taken.ok) return taken;
  if (editing.schema !== undefined) {
    // A key the schema forbids is refused, not left for a validator to strip: what a person
    // approves is exactly what runs (docs/guarantees.md, "Exact-arguments approval").
    const checked = checkJsonSchema(editing.schema, taken.snapshot, EDIT_CHECK);
    if (!checked.ok) return { ok: false, issues: issue(parsePath(checked.path), checked.message.slice(checked.path.length + 2) || checked.message) };
  }
  const validate = editing.validate;
  if (validate === undefined) return taken;
  let answer: ArgumentsCheck;
  try {
    answer = await validate(taken.snapshot);
  } catch (error) {
    return { ok: false, issues: issue([], `The check of the arguments failed: ${describeThrown(error)}`) };
  }
  return readAnswer(answer, taken);
}

/** The validator's answer, each field read once and never trusted. */
function readAnswer(answer: unknown, taken: CheckedDraft & { ok: true }): CheckedDraft {
  if (typeof answer !== 'object' || answer === null) return { ok: false, issues: issue([], 'The check of the arguments gave no answer') };
  const { ok } = answer as { ok?: unknown };
  if (ok === true) {
    // The validator's output (defaults filled in, values coerced) is what is approved and runs.
    return 'value' in answer && (answer as { value?: unknown }).value !== undefined ? take((answer as { value: unknown }).value) : taken;
  }
  const raw = (answer as { issues?: unknown }).issues;
  const issues: ArgumentsIssue[] = [];
  if (Array.isArray(raw)) {
    for (const item of raw.slice(0, 50)) {
      if (typeof item !== 'object' || item === null) continue;
      const message = (item as { message?: unknown }).message;
      const path = (item as { path?: unknown }).path;
      issues.push(Object.freeze({ path: Object.freeze(stepsOf(path)), message: typeof message === 'string' && message !== '' ? message : 'is not valid' }));
    }
  }
  return { ok: false, issues: issues.length > 0 ? Object.freeze(issues) : issue([], 'The arguments are not valid') };
}

/** Path steps from a Standard Schema issue's path (keys, or `{ key }` segments); anything else is dropped. */
export function stepsOf(path: unknown): JsonPathStep[] {
  if (!Array.isArray(path)) return [];
  const steps: JsonPathStep[] = [];
  for (const segment of path.slice(0, 64)) {
    const key: unknown = typeof segment === 'object' && segment !== null ? (segment as { key?: unknown }).key : segment;
    if (typeof key === 'string' || (typeof key === 'number' && Number.isInteger(key))) steps.push(key);
  }
  return steps;
}

/**
 * The steps of a path the JSON Schema check wrote (`arguments.legs[0]["odd key"]`): identifiers
 * after a dot, indexes and quoted keys in brackets. What cannot be read ends the path there.
 */
export function parsePath(text: string, root = 'arguments'): JsonPathStep[] {
  const steps: JsonPathStep[] = [];
  let at = text.startsWith(root) ? root.length : 0;
  while (at < text.length) {
    if (text[at] === '.') {
      const match = /^[A-Za-z_$][\w$]*/.exec(text.slice(at + 1));
      if (!match) break;
      steps.push(match[0]);
      at += 1 + match[0].length;
    } else if (text.startsWith('["', at)) {
      // A JSON string up to its closing quote (an escaped quote does not close it).
      const match = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at + 1));
      if (!match) break;
      steps.push(JSON.parse(match[0]) as string);
      at += 1 + match[0].length + 1;
    } else if (text[at] === '[') {
      const match = /^\d+/.exec(text.slice(at + 1));
      if (!match) break;
      steps.push(Number(match[0]));
      at += 1 + match[0].length + 1;
    } else {
      break;
    }
  }
  return steps;
}
