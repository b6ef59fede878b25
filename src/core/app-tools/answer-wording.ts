/**
 * How the app-tool host words its answers: results that are not the run's own output, reasons
 * for aborting a run, and descriptions of values that user code threw or returned.
 *
 * (docs/protocol.md, "App tools"): every call gets exactly one result, at once. A value thrown or returned by
 * user code may be hostile (an Error whose `message` getter throws, a Proxy whose traps throw, a
 * null-prototype object whose `toJSON` throws); reading it must never throw in turn, or the call
 * would wait for its time limit (forever, without one) and leave an unhandled rejection behind.
 */

import { describeThrown } from '../external-store';
import { snapshotJson, type JsonSnapshot, type JsonValue } from '../json/json-value';
import { isToolError } from './tool-error';
import type { ToolResult, ToolResultCode } from '../wire';

/** A frozen failed result. */
export function failure(code: ToolResultCode, message: string): ToolResult & { ok: false } {
  return Object.freeze({ ok: false as const, code, message });
}

/** What a run's signal aborts with: a DOMException where there is one, as `fetch` expects. */
export function abortReason(message: string, name: 'AbortError' | 'TimeoutError'): unknown {
  if (typeof DOMException === 'function') return new DOMException(message, name);
  const error = new Error(message);
  error.name = name;
  return error;
}

/**
 * A short text for a value user code threw: an Error's message (or its name), a string as it is,
 * anything else as JSON. Never throws; what cannot be read falls back to `describeThrown`.
 */
export function describeFailure(error: unknown): string {
  try {
    if (typeof error === 'string') return error;
    if (error instanceof Error) {
      const message = readString(() => error.message);
      if (message) return message;
      const name = readString(() => error.name);
      if (name) return name;
      return describeThrown(error);
    }
    const json = JSON.stringify(error);
    if (typeof json === 'string') return json;
  } catch {
    // A getter, a trap or a `toJSON` threw: describe it the one safe way below.
  }
  return describeThrown(error);
}

/** A property read that gives a string or nothing, and never throws. */
export function readString(read: () => unknown): string | undefined {
  try {
    const value = read();
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * {@link snapshotJson} under a name for its root (`arguments`, `output`), that also turns a throw
 * while reading the value (a getter, an `ownKeys` or `getPrototypeOf` trap) into a reason.
 */
export function snapshotJsonSafely(value: unknown, root: string): JsonSnapshot {
  let snapshot: JsonSnapshot;
  try {
    snapshot = snapshotJson(value);
  } catch (error) {
    return { ok: false, reason: `${root} could not be read: ${describeThrown(error)}` };
  }
  return snapshot.ok || root === 'arguments' ? snapshot : { ok: false, reason: snapshot.reason.replace(/^arguments/, root) };
}

/** A value `run` threw: its own code for a `ToolError`, else FAILED; described without ever throwing. */
export function thrownResult(toolName: string, error: unknown): ToolResult & { ok: false } {
  if (isToolError(error)) {
    const code = readString(() => error.code);
    if (code === 'INVALID' || code === 'REJECTED') return failure(code, readString(() => error.message) ?? '');
  }
  return failure('FAILED', `"${toolName}" threw: ${describeFailure(error)}`);
}

/**
 * The person's answer, each field read once and never trusted: anything but `approved: true` is a
 * no. Throws only when the answer cannot be read at all (a Proxy whose traps throw).
 */
export function readApproval(answer: unknown): { approved: boolean; reason: string; edited?: { value: unknown }; instead?: { decision: 'respond'; output: JsonValue } | { decision: 'cancel' } } {
  if (typeof answer !== 'object' || answer === null) return { approved: false, reason: '' };
  const { approved, decision } = answer as { approved?: unknown; decision?: unknown };
  if (approved !== true) {
    const reason = readString(() => (answer as { reason?: unknown }).reason) ?? '';
    // A person answered in the tool's place (a JSON output), or withdrew the request (docs/protocol.md "Decisions").
    if (decision === 'cancel') return { approved: false, reason, instead: { decision: 'cancel' } };
    if (decision === 'respond') {
      const output = snapshotJsonSafely((answer as { output?: unknown }).output, 'output');
      if (output.ok) return { approved: false, reason, instead: { decision: 'respond', output: output.value } };
    }
    return { approved: false, reason };
  }
  // Read once: what runs is checked from this value, never read from the answer again.
  let edited: { value: unknown } | undefined;
  try {
    if ('arguments' in answer) edited = { value: (answer as { arguments?: unknown }).arguments };
  } catch {
    edited = { value: undefined };
  }
  return edited === undefined || edited.value === undefined ? { approved: true, reason: '' } : { approved: true, reason: '', edited };
}
