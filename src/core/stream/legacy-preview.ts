/**
 * Legacy `tool.preview` events, kept in this one module because their shape is an assumption
 * (the runtimes name them but do not give their fields; docs/protocol.md, "Legacy previews").
 *
 * Assumed: `arguments` is the argument JSON text received so far; an already-parsed value is
 * accepted too. Text that extends the previous text is pushed as a suffix; any other text
 * resets the call's parser. A preview may be the first thing seen of a call: it creates it.
 * Preview calls show `streaming`, then `issued` once their text is complete JSON; they end
 * only by a local interrupt or `closed`.
 */
import { snapshotJson } from '../json/json-value';
import {
  appendArguments,
  argumentsAreComplete,
  createToolCall,
  resetArguments,
  settleArguments,
  updateToolCall,
  type CallRecord,
} from './tool-call';
import type { ToolPreviewEvent } from '../wire';

/**
 * How legacy `tool.preview` events are used: `auto` (until the session first speaks `tool.stream`), only `stream`, or only `preview`.
 *
 * @example
 * const store = createToolStreamStore({ previewMode: 'preview' satisfies PreviewMode }); // a server without tool-stream-v1
 */
export type PreviewMode = 'auto' | 'stream' | 'preview';

/**
 * Whether previews still build calls. In `auto`, previews count until the session first
 * speaks `tool.stream`; a server with tool-stream-v1 sends both, and a call is never shown twice.
 */
export function previewsCount(mode: PreviewMode, speaksStream: boolean): boolean {
  return mode === 'preview' || (mode === 'auto' && !speaksStream);
}

/** The call a preview event makes of `existing` (or a new call). Never throws. */
export function applyPreview(existing: CallRecord | undefined, event: ToolPreviewEvent, now: number | undefined): CallRecord {
  const base =
    existing ??
    createToolCall({
      callId: event.callId,
      name: event.name ?? '',
      turnId: event.turnId,
      status: 'streaming',
      source: 'preview',
      location: undefined,
      risk: undefined,
      startedAt: now,
    });
  const names = { name: event.name ?? base.name, turnId: event.turnId ?? base.turnId };

  if (typeof event.arguments !== 'string') {
    // Already parsed: complete by definition, if it is JSON at all.
    const snapshot = snapshotJson(event.arguments);
    if (!snapshot.ok) return updateToolCall(base, { ...names, argumentsError: snapshot.reason });
    const written = resetArguments(base, JSON.stringify(snapshot.value), names);
    return settleArguments(written, { status: 'issued', arguments: snapshot.value, issuedAt: base.issuedAt ?? now });
  }

  const text = event.arguments;
  const previous = base.argumentsText;
  let next: CallRecord;
  if (text === previous && existing !== undefined) {
    next = updateToolCall(base, names);
  } else if (text.startsWith(previous) && base.arguments === undefined) {
    next = appendArguments(base, text.slice(previous.length), names);
  } else {
    next = resetArguments(base, text, { ...names, arguments: undefined, status: 'streaming', issuedAt: undefined });
  }
  if (next.status !== 'issued' && next.argumentsError === undefined && argumentsAreComplete(next)) {
    const value = next.partialArguments;
    next = settleArguments(next, { status: 'issued', arguments: value, issuedAt: now });
  }
  return next;
}
