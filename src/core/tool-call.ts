/**
 * One tool call as the state shows it, and the bridge between immutable call objects and the
 * stateful incremental parser (DESIGN "Purity, the parser and snapshots").
 *
 * The parser for a call lives outside the state, in a cache keyed by the call's *current*
 * object. Reducing a fragment moves the parser from the old object to the new one; reducing an
 * older state again misses the cache and rebuilds the parser from `argumentsText`. The preview
 * (`partialArguments`) is built on first read and cached on that object, so nobody pays for
 * fragments nobody looks at, and a call object never shows two different previews.
 */
import { createArgumentsParser, type ArgumentsParser, type ArgumentsPath } from './arguments-parser';
import type { ToolCallStatus } from './call-lifecycle';
import type { ToolLocation, ToolRisk } from './wire';

/** An outcome the server reported after the call had already been cancelled locally. */
export interface LateOutcome {
  ok: boolean;
  code?: string;
  at?: number;
}

/** The fields of a call; `partialArguments` and `writingPath` are derived on read. */
export interface ToolCallFields {
  readonly callId: string;
  readonly name: string;
  /** The turn the call belongs to; a legacy preview may not say. */
  readonly turnId: string | undefined;
  readonly status: ToolCallStatus;
  /** Built from `tool.stream` events, or only from legacy `tool.preview` events. */
  readonly source: 'stream' | 'preview';
  readonly location: ToolLocation | undefined;
  readonly risk: ToolRisk | undefined;
  /** The raw accumulated argument JSON text, fragments in order. */
  readonly argumentsText: string;
  /** The final arguments from `arguments-complete` (a frozen JSON value); `undefined` before. */
  readonly arguments: unknown;
  /** Why the argument text is not (or cannot become) valid JSON. */
  readonly argumentsError: string | undefined;
  /** The latest progress: application data, render it but never trust its shape. */
  readonly progress: unknown;
  /** Once settled: whether the call succeeded, and its code. */
  readonly ok: boolean | undefined;
  readonly code: string | undefined;
  /** Once failed: why the model stopped. */
  readonly message: string | undefined;
  /** Who cancelled: the user here (`local`, at once) or the server. */
  readonly cancelledBy: 'local' | 'server' | undefined;
  /** A `settled` that arrived after a local cancel: cancellation cannot undo a committed effect. */
  readonly lateOutcome: LateOutcome | undefined;
  readonly startedAt: number | undefined;
  readonly issuedAt: number | undefined;
  readonly endedAt: number | undefined;
}

export interface ToolCall extends ToolCallFields {
  /** Best-effort, frozen value of `argumentsText` for previews (the final arguments once complete). */
  readonly partialArguments: unknown;
  /** The path of the argument being written while the call streams, else `undefined`. */
  readonly writingPath: ArgumentsPath | undefined;
}

interface Preview {
  value: unknown;
  path: ArgumentsPath | undefined;
}

const parsers = new WeakMap<ToolCallFields, ArgumentsParser>();
const previews = new WeakMap<ToolCallFields, Preview>();

class ToolCallRecord {
  get partialArguments(): unknown {
    return previewOf(this as unknown as ToolCall).value;
  }
  get writingPath(): ArgumentsPath | undefined {
    return previewOf(this as unknown as ToolCall).path;
  }
}

/** Create a call object from its fields. */
export function createToolCall(fields: ToolCallFields): ToolCall {
  return Object.assign(Object.create(ToolCallRecord.prototype) as ToolCall, fields);
}

/** A new call object with `changes` applied; the old one is untouched. */
export function updateToolCall(call: ToolCall, changes: Partial<ToolCallFields>): ToolCall {
  return Object.assign(Object.create(ToolCallRecord.prototype) as ToolCall, call, changes);
}

function previewOf(call: ToolCall): Preview {
  let preview = previews.get(call);
  if (preview === undefined) {
    if (call.arguments !== undefined) {
      preview = { value: call.arguments, path: undefined };
    } else {
      const parser = parserOf(call);
      preview = { value: parser.value, path: call.status === 'streaming' ? parser.path : undefined };
    }
    previews.set(call, preview);
  }
  return preview;
}

/** The parser whose position is exactly `call.argumentsText`, rebuilt when the cache misses. */
function parserOf(call: ToolCall): ArgumentsParser {
  let parser = parsers.get(call);
  if (parser === undefined) {
    parser = createArgumentsParser();
    parser.append(call.argumentsText);
    parsers.set(call, parser);
  }
  return parser;
}

/**
 * Append argument text: returns the new call object (which now owns the parser) and the
 * parser's error, if the text can never become JSON.
 */
export function appendArguments(call: ToolCall, delta: string, changes: Partial<ToolCallFields>): ToolCall {
  const parser = parserOf(call);
  parsers.delete(call);
  parser.append(delta);
  const next = updateToolCall(call, {
    ...changes,
    argumentsText: call.argumentsText + delta,
    argumentsError: parser.error?.reason,
  });
  parsers.set(next, parser);
  return next;
}

/** Replace the argument text (a legacy preview that does not extend the previous text). */
export function resetArguments(call: ToolCall, text: string, changes: Partial<ToolCallFields>): ToolCall {
  parsers.delete(call);
  return appendArguments(updateToolCall(call, { argumentsText: '', argumentsError: undefined }), text, changes);
}

/** Whether the call's argument text is one whole JSON value (its parser says so). */
export function argumentsAreComplete(call: ToolCall): boolean {
  return parserOf(call).complete;
}

/**
 * End argument streaming: the new call keeps the preview it had (frozen), and the parser's
 * buffers are released. Once arguments are complete, memory is bounded by the final value.
 */
export function settleArguments(call: ToolCall, changes: Partial<ToolCallFields>): ToolCall {
  const next = updateToolCall(call, changes);
  if (next.arguments === undefined) {
    const preview = previewOf(call);
    previews.set(next, { value: preview.value, path: undefined });
  }
  parsers.delete(call);
  return next;
}
