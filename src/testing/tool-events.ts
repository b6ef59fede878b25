/**
 * Builders for the wire's tool events, for tests, stories and scripted sessions.
 *
 * @example
 * import { toolEvents as e } from 'toolgate/testing';
 * store.getState().dispatch(e.start('c1', { name: 'search', turnId: 't1' }));
 * store.getState().dispatch(e.delta('c1', '{"q":"cats"}'));
 */
import type {
  SessionClosedEvent,
  ToolPreviewEvent,
  ToolRisk,
  ToolLocation,
  ToolStreamArgumentsCompleteEvent,
  ToolStreamArgumentsDeltaEvent,
  ToolStreamCancelledEvent,
  ToolStreamFailedEvent,
  ToolStreamProgressEvent,
  ToolStreamSettledEvent,
  ToolStreamStartEvent,
} from '../core/wire';

type Extra = { seq?: number };

/**
 * Builders for every wire event, with defaults for what a test does not care about (`name: 'tool'`, `turnId: 'turn-1'`).
 *
 * @example
 * const e = toolEvents;
 * store.getState().dispatch(e.start('c1', { name: 'search', turnId: 't1' }));
 * store.getState().dispatch(e.delta('c1', '{"q":"cats"}'));
 * store.getState().dispatch(e.settled('c1', true));
 */
export const toolEvents = {
  start: (
    callId: string,
    options: { name?: string; turnId?: string; location?: ToolLocation; risk?: ToolRisk } & Extra = {},
  ): ToolStreamStartEvent => ({
    type: 'tool.stream',
    phase: 'start',
    callId,
    name: options.name ?? 'tool',
    turnId: options.turnId ?? 'turn-1',
    ...(options.location !== undefined && { location: options.location }),
    ...(options.risk !== undefined && { risk: options.risk }),
    ...(options.seq !== undefined && { seq: options.seq }),
  }),
  delta: (callId: string, delta: string, extra: Extra = {}): ToolStreamArgumentsDeltaEvent => ({
    type: 'tool.stream',
    phase: 'arguments-delta',
    callId,
    delta,
    ...extra,
  }),
  complete: (callId: string, args: unknown, extra: Extra = {}): ToolStreamArgumentsCompleteEvent => ({
    type: 'tool.stream',
    phase: 'arguments-complete',
    callId,
    arguments: args,
    ...extra,
  }),
  progress: (callId: string, progress: unknown, extra: Extra = {}): ToolStreamProgressEvent => ({
    type: 'tool.stream',
    phase: 'progress',
    callId,
    progress,
    ...extra,
  }),
  settled: (callId: string, ok = true, code?: string, extra: Extra = {}): ToolStreamSettledEvent => ({
    type: 'tool.stream',
    phase: 'settled',
    callId,
    ok,
    ...(code !== undefined && { code }),
    ...extra,
  }),
  cancelled: (callId: string, extra: Extra = {}): ToolStreamCancelledEvent => ({
    type: 'tool.stream',
    phase: 'cancelled',
    callId,
    ...extra,
  }),
  failed: (callId: string, message = 'the model stopped before completing the arguments', extra: Extra = {}): ToolStreamFailedEvent => ({
    type: 'tool.stream',
    phase: 'failed',
    callId,
    message,
    ...extra,
  }),
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
