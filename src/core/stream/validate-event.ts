/**
 * Event validation: turns an `unknown` from the wire into a typed event, or says exactly what is
 * wrong with it. Events of other types are not errors (docs/protocol.md, "Rules of the stream": everything else is
 * ignored), except frames that name an event only the page may produce: those are refused.
 *
 * Each field is read exactly once and copied into a plain event object, and everything after
 * validation reads only the copy: a getter or a Proxy that answers differently on each read
 * cannot make the reducer see one value and keep another. JSON data (progress, outputs) is
 * copied deep and frozen, so a sender changing its object later changes no state.
 */
import { localOnlyNameIn } from './local-events';
import { copyFields, describeValue, isToolStreamPhase, readOwn, rules, TOOL_PHASES, type FieldRule } from './tool-phases';
import type { ToolEvent } from '../wire';

/**
 * What {@link validateToolEvent} makes of a raw value: a tool event (a plain copy), another kind
 * of message, a frame naming an event only the page may produce, or a malformed one with its reason.
 *
 * @example
 * const checked: ValidatedEvent = validateToolEvent(JSON.parse(frame));
 * if (checked.kind === 'malformed') console.warn(checked.reason);
 */
export type ValidatedEvent =
  | { kind: 'event'; event: ToolEvent }
  /** Not a tool event (another `type`): ignored, not an error. */
  | { kind: 'other'; type: string }
  /** A session frame naming an event only the page may produce (a local interrupt, an approval mark): refused. */
  | { kind: 'local-only'; reason: string }
  | { kind: 'malformed'; reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const read = readOwn;

/**
 * Check an event's shape and copy it. Never throws.
 *
 * @example
 * validateToolEvent({ type: 'tool.stream', phase: 'arguments-delta', callId: 'c1', delta: 7 });
 * // → { kind: 'malformed', reason: "tool.stream arguments-delta for call 'c1': delta must be a string, got number" }
 */
export function validateToolEvent(raw: unknown): ValidatedEvent {
  try {
    return validate(raw);
  } catch (error) {
    // A getter or a Proxy trap that throws: the event cannot be read, so it is malformed.
    return { kind: 'malformed', reason: `the event could not be read: ${String(error)}` };
  }
}

function validate(raw: unknown): ValidatedEvent {
  if (!isRecord(raw)) {
    const named = Array.isArray(raw) ? localOnlyNameIn(raw) : undefined;
    if (named !== undefined) return localOnly(named);
    return { kind: 'malformed', reason: `an event must be an object, got ${kindOf(raw)}` };
  }
  const type = read(raw, 'type');
  if (typeof type !== 'string') {
    const named = localOnlyNameIn(raw);
    if (named !== undefined) return localOnly(named);
    return { kind: 'malformed', reason: `an event must have a string type, got ${describeValue(type)}` };
  }
  if (type !== 'tool.stream' && type !== 'tool.preview' && type !== 'closed') {
    // Not a tool event: ignored, unless it names (in any spelling, or below a type-like key) an
    // event only the page may produce.
    const named = localOnlyNameIn(raw);
    return named === undefined ? { kind: 'other', type } : localOnly(named);
  }
  const seq = read(raw, 'seq');
  if (seq !== undefined && !(typeof seq === 'number' && Number.isFinite(seq))) {
    return { kind: 'malformed', reason: `${type}: seq must be a finite number, got ${describeValue(seq)}` };
  }
  const copied = type === 'tool.stream' ? copyStream(raw) : type === 'tool.preview' ? copyPreview(raw) : { event: { type: 'closed' } as ToolEvent };
  if ('reason' in copied) return copied;
  if (seq !== undefined) (copied.event as { seq?: number }).seq = seq;
  return { kind: 'event', event: copied.event };
}

type Copied = { event: ToolEvent } | ValidatedEvent & { kind: 'malformed' | 'local-only' };

function copyStream(raw: Record<string, unknown>): Copied {
  const phase = read(raw, 'phase');
  if (!isToolStreamPhase(phase)) {
    const named = localOnlyNameIn(raw);
    if (named !== undefined) return localOnly(named);
    return malformed(`tool.stream: unknown phase ${describeValue(phase)} (expected one of ${Object.keys(TOOL_PHASES).join(', ')})`);
  }
  const callId = read(raw, 'callId');
  if (typeof callId !== 'string' || callId === '') return malformed(`tool.stream ${phase}: callId must be a non-empty string, got ${describeValue(callId)}`);
  const event: Record<string, unknown> = { type: 'tool.stream', phase, callId };
  const spec = TOOL_PHASES[phase];
  const problem = copyFields(raw, spec.fields as Record<string, FieldRule>, event) ?? (spec.refine as ((e: unknown) => string | undefined) | undefined)?.(event);
  if (problem !== undefined) return malformed(`tool.stream ${phase} for call '${callId}': ${problem}`);
  return { event: event as unknown as ToolEvent };
}

const PREVIEW_FIELDS: Readonly<Record<string, FieldRule>> = {
  name: rules.optional(rules.string),
  turnId: rules.optional(rules.string),
  arguments: rules.present,
};

function copyPreview(raw: Record<string, unknown>): Copied {
  const callId = read(raw, 'callId');
  if (typeof callId !== 'string' || callId === '') return malformed(`tool.preview: callId must be a non-empty string, got ${describeValue(callId)}`);
  const event: Record<string, unknown> = { type: 'tool.preview', callId };
  const problem = copyFields(raw, PREVIEW_FIELDS, event);
  if (problem !== undefined) return malformed(`tool.preview for call '${callId}': ${problem}`);
  return { event: event as unknown as ToolEvent };
}

const malformed = (reason: string) => ({ kind: 'malformed' as const, reason });

const localOnly = (name: string) => ({
  kind: 'local-only' as const,
  reason: `a session frame named ${describeValue(name)}, an event only this page may produce (a local interrupt or an approval mark): refused, nothing changed`,
});

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'undefined' ? 'nothing' : `a ${typeof v}`;
}
