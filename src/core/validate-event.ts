/**
 * Event validation: turns an `unknown` from the wire into a typed event, or says exactly
 * what is wrong with it. Events of other types are not errors (DESIGN "The wire": everything
 * else is ignored).
 */
import { TOOL_STREAM_PHASES, type ToolEvent, type ToolStreamPhase } from './wire';

/**
 * What {@link validateToolEvent} makes of a raw value: a tool event, another kind of message, or a malformed one with its reason.
 *
 * @example
 * const checked: ValidatedEvent = validateToolEvent(JSON.parse(frame));
 * if (checked.kind === 'malformed') console.warn(checked.reason);
 */
export type ValidatedEvent =
  | { kind: 'event'; event: ToolEvent }
  /** Not a tool event (another `type`): ignored, not an error. */
  | { kind: 'other'; type: string }
  | { kind: 'malformed'; reason: string };

const PHASES = new Set<string>(TOOL_STREAM_PHASES);
const RISKS = new Set(['low', 'medium', 'high']);
const LOCATIONS = new Set(['server', 'app']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Check an event's shape. Never throws.
 *
 * @example
 * validateToolEvent({ type: 'tool.stream', phase: 'arguments-delta', callId: 'c1', delta: 7 });
 * // → { kind: 'malformed', reason: "tool.stream arguments-delta for call 'c1': delta must be a string, got number" }
 */
export function validateToolEvent(raw: unknown): ValidatedEvent {
  if (!isRecord(raw)) return { kind: 'malformed', reason: `an event must be an object, got ${kindOf(raw)}` };
  const type = raw.type;
  if (typeof type !== 'string') return { kind: 'malformed', reason: `an event must have a string type, got ${describe(type)}` };
  if (type !== 'tool.stream' && type !== 'tool.preview' && type !== 'closed' && type !== 'toolgate.interrupt') {
    return { kind: 'other', type };
  }
  if (has(raw, 'seq') && !(typeof raw.seq === 'number' && Number.isFinite(raw.seq))) {
    return { kind: 'malformed', reason: `${type}: seq must be a finite number, got ${describe(raw.seq)}` };
  }
  const problem = problemOf(type, raw);
  return problem === undefined ? { kind: 'event', event: raw as unknown as ToolEvent } : { kind: 'malformed', reason: problem };
}

function problemOf(type: string, e: Record<string, unknown>): string | undefined {
  switch (type) {
    case 'closed':
      return undefined;
    case 'toolgate.interrupt':
      return e.turnId === undefined || typeof e.turnId === 'string' ? undefined : `interrupt: turnId must be a string`;
    case 'tool.preview': {
      if (!isId(e.callId)) return `tool.preview: callId must be a non-empty string, got ${describe(e.callId)}`;
      if (e.name !== undefined && typeof e.name !== 'string') return `tool.preview for call '${e.callId}': name must be a string`;
      if (e.turnId !== undefined && typeof e.turnId !== 'string') return `tool.preview for call '${e.callId}': turnId must be a string`;
      if (!has(e, 'arguments') || e.arguments === undefined) return `tool.preview for call '${e.callId}': arguments are missing`;
      return undefined;
    }
    default: {
      const phase = e.phase;
      if (typeof phase !== 'string' || !PHASES.has(phase)) {
        return `tool.stream: unknown phase ${describe(phase)} (expected one of ${TOOL_STREAM_PHASES.join(', ')})`;
      }
      if (!isId(e.callId)) return `tool.stream ${phase}: callId must be a non-empty string, got ${describe(e.callId)}`;
      const fault = phaseProblem(phase as ToolStreamPhase, e);
      return fault === undefined ? undefined : `tool.stream ${phase} for call '${e.callId}': ${fault}`;
    }
  }
}

function phaseProblem(phase: ToolStreamPhase, e: Record<string, unknown>): string | undefined {
  switch (phase) {
    case 'start':
      if (typeof e.turnId !== 'string') return `turnId must be a string, got ${describe(e.turnId)}`;
      if (!isId(e.name)) return `name must be a non-empty string, got ${describe(e.name)}`;
      if (e.location !== undefined && !LOCATIONS.has(e.location as string)) return `location must be 'server' or 'app', got ${describe(e.location)}`;
      if (e.risk !== undefined && !RISKS.has(e.risk as string)) return `risk must be 'low', 'medium' or 'high', got ${describe(e.risk)}`;
      return undefined;
    case 'arguments-delta':
      return typeof e.delta === 'string' ? undefined : `delta must be a string, got ${describe(e.delta)}`;
    case 'arguments-complete':
      return has(e, 'arguments') && e.arguments !== undefined ? undefined : 'arguments are missing';
    case 'progress':
      return undefined;
    case 'settled':
      if (typeof e.ok !== 'boolean') return `ok must be a boolean, got ${describe(e.ok)}`;
      return e.code === undefined || typeof e.code === 'string' ? undefined : `code must be a string, got ${describe(e.code)}`;
    case 'cancelled':
      return undefined;
    case 'failed':
      return typeof e.message === 'string' ? undefined : `message must be a string, got ${describe(e.message)}`;
    default:
      return phase satisfies never;
  }
}

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'undefined' ? 'nothing' : `a ${typeof v}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? `'${v.slice(0, 40)}…'` : `'${v}'`;
  return typeof v === 'object' ? 'an object' : typeof v === 'undefined' ? 'nothing' : typeof v;
}
