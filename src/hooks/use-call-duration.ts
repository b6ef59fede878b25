import { isTerminalStatus } from '../core/stream/call-lifecycle';
import type { ToolCall } from '../core/stream/tool-call';
import { systemClock, useNow, type ToolgateClock } from './use-now';

/**
 * What {@link useCallDuration} returns: how long a call took, or has taken so far.
 *
 * @example
 * const { ms, final }: CallDuration = useCallDuration(call);
 * return <time>{ms === undefined ? '' : formatDuration(ms)}{final ? '' : '…'}</time>;
 */
export interface CallDuration {
  /** Milliseconds from start to end, or to now while the call is open; `undefined` without timestamps. */
  ms: number | undefined;
  /** `true` once the call has ended: `ms` is final. */
  final: boolean;
}

/**
 * How long a call took, or has been going; ticks every `intervalMs` while the call is open.
 * The store's clock stamps the call, so pass the same clock here if the store has its own.
 *
 * @example
 * const { ms, final } = useCallDuration(call);
 */
export function useCallDuration(
  call: Pick<ToolCall, 'status' | 'startedAt' | 'endedAt'> | undefined,
  options: { intervalMs?: number; clock?: ToolgateClock } = {},
): CallDuration {
  const final = call !== undefined && isTerminalStatus(call.status);
  const live = call?.startedAt !== undefined && !final;
  const clock = options.clock ?? systemClock;
  const now = useNow(live, options.intervalMs, clock);
  if (call?.startedAt === undefined) return { ms: undefined, final };
  // Once mounted (`now` set), a render between ticks (the call changed) reads the time now: the last
  // tick may be up to a second old, and a call that just started running would show that old time.
  const end = final ? call.endedAt : now === undefined ? undefined : Math.max(now, clock.now());
  return { ms: end === undefined ? undefined : Math.max(0, end - call.startedAt), final };
}
