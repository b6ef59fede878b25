/**
 * Builders for the wire's tool events, for tests, stories and scripted sessions.
 *
 * @example
 * import { toolEvents as e } from 'toolgate/testing';
 * store.getState().dispatch(e.start('c1', { name: 'search', turnId: 't1' }));
 * store.getState().dispatch(e.delta('c1', '{"q":"cats"}'));
 */
import type { PhaseEvent, PhaseFields } from '../core/stream/tool-phases';
import type {
  SessionClosedEvent,
  ToolPreviewEvent,
  ToolRisk,
  ToolLocation,
  ToolStreamArgumentsCompleteEvent,
  ToolStreamArgumentsDeltaEvent,
  ToolStreamCancelledEvent,
  ToolStreamFailedEvent,
  ToolStreamPhase,
  ToolStreamProgressEvent,
  ToolStreamSettledEvent,
  ToolStreamStartEvent,
} from '../core/wire';

type Extra = { seq?: number };

/**
 * What the builders fill in when a test does not say, for every phase (a new phase without its
 * entry does not compile). Kept here, not in the phase specs, so the store's bundle does not carry it.
 */
export const PHASE_DEFAULTS: { readonly [P in ToolStreamPhase]: Partial<PhaseFields<P>> } = {
  start: { name: 'tool', turnId: 'turn-1' },
  'arguments-delta': { delta: '' },
  'arguments-complete': { arguments: {} },
  progress: {},
  settled: { ok: true },
  cancelled: {},
  failed: { message: 'the model stopped before completing the arguments' },
};

/**
 * Any phase's event: its defaults (`PHASE_DEFAULTS`), then `fields` (a field given as
 * `undefined` keeps its default, or is left out). The named builders below are this with their own argument order.
 */
function phaseEvent<P extends ToolStreamPhase>(phase: P, callId: string, fields: Partial<PhaseFields<P>> & Extra = {}): PhaseEvent<P> {
  const event: Record<string, unknown> = { type: 'tool.stream', phase, callId, ...PHASE_DEFAULTS[phase] };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) event[key] = value;
  return event as unknown as PhaseEvent<P>;
}

/**
 * Builders for every wire event, with defaults for what a test does not care about (`name: 'tool'`, `turnId: 'turn-1'`).
 *
 * @example
 * const e = toolEvents;
 * store.getState().dispatch(e.start('c1', { name: 'search', turnId: 't1' }));
 * store.getState().dispatch(e.delta('c1', '{"q":"cats"}'));
 * store.getState().dispatch(e.settled('c1', true));
 * store.getState().dispatch(e.phase('settled', 'c2', { ok: false, code: 'REJECTED', message: 'declined by the user' }));
 */
export const toolEvents = {
  /** Any phase's event, with its defaults: what a new phase gets without a builder of its own. */
  phase: phaseEvent,
  start: (
    callId: string,
    options: { name?: string; turnId?: string; location?: ToolLocation; risk?: ToolRisk; parentCallId?: string } & Extra = {},
  ): ToolStreamStartEvent => phaseEvent('start', callId, options),
  delta: (callId: string, delta: string, extra: Extra = {}): ToolStreamArgumentsDeltaEvent => phaseEvent('arguments-delta', callId, { delta, ...extra }),
  complete: (callId: string, args: unknown, extra: Extra = {}): ToolStreamArgumentsCompleteEvent =>
    phaseEvent('arguments-complete', callId, { arguments: args, ...extra }),
  progress: (callId: string, progress: unknown, extra: Extra & { output?: unknown } = {}): ToolStreamProgressEvent =>
    phaseEvent('progress', callId, { progress, ...extra }),
  settled: (callId: string, ok = true, code?: string, extra: Extra & { message?: string; output?: unknown } = {}): ToolStreamSettledEvent =>
    phaseEvent('settled', callId, { ok, code, ...extra }),
  cancelled: (callId: string, extra: Extra = {}): ToolStreamCancelledEvent => phaseEvent('cancelled', callId, extra),
  failed: (callId: string, message?: string, extra: Extra = {}): ToolStreamFailedEvent => phaseEvent('failed', callId, { message, ...extra }),
  preview: (callId: string, args: unknown, options: { name?: string; turnId?: string } & Extra = {}): ToolPreviewEvent => ({
    type: 'tool.preview',
    callId,
    arguments: args,
    ...options,
  }),
  closed: (extra: Extra = {}): SessionClosedEvent => ({ type: 'closed', ...extra }),
};

/**
 * The events of one whole call: start, the argument text cut into fragments, complete, and
 * an outcome. `chunk` is the fragment length (default 4).
 *
 * @example
 * for (const event of callEvents('c1', { name: 'search', arguments: { q: 'cats' }, outcome: { ok: false, code: 'TIMEOUT' } })) {
 *   store.getState().dispatch(event);
 * }
 */
export function callEvents(
  callId: string,
  options: {
    name?: string;
    turnId?: string;
    arguments: unknown;
    chunk?: number;
    outcome?: { ok: boolean; code?: string } | 'cancelled' | 'open';
    location?: ToolLocation;
    risk?: ToolRisk;
  },
) {
  const text = JSON.stringify(options.arguments);
  const chunk = Math.max(1, options.chunk ?? 4);
  const events: (ToolStreamStartEvent | ToolStreamArgumentsDeltaEvent | ToolStreamArgumentsCompleteEvent | ToolStreamSettledEvent | ToolStreamCancelledEvent)[] = [
    toolEvents.start(callId, options),
  ];
  for (let i = 0; i < text.length; i += chunk) events.push(toolEvents.delta(callId, text.slice(i, i + chunk)));
  events.push(toolEvents.complete(callId, options.arguments));
  const outcome = options.outcome ?? { ok: true };
  if (outcome === 'cancelled') events.push(toolEvents.cancelled(callId));
  else if (outcome !== 'open') events.push(toolEvents.settled(callId, outcome.ok, outcome.code));
  return events;
}
