/**
 * The life of one tool call, as a transition table: `status -> phase -> status`.
 *
 * seed 000 ("Watching a call"): every call starts with `start` and ends with exactly one of
 * `settled`, `cancelled` or `failed`, unless the session ends first. A model that does not
 * stream arguments goes straight from `start` to `arguments-complete`. `failed` means the
 * model stopped before completing the arguments, so it can only end a call that is not issued.
 */
import type { ToolStreamPhase } from './wire';

/**
 * - `pending`: start seen, no argument text yet (show a waiting state);
 * - `streaming`: argument fragments arriving;
 * - `issued`: arguments complete, the call is issued;
 * - `settled`, `cancelled`, `failed`: terminal and sticky.
 *
 * @example
 * const waiting = (status: ToolCallStatus) => status === 'pending' || status === 'streaming';
 */
export type ToolCallStatus = 'pending' | 'streaming' | 'issued' | 'settled' | 'cancelled' | 'failed';

/**
 * The statuses a call never leaves: `settled`, `cancelled`, `failed`.
 *
 * @example
 * const open = state.order.filter((id) => !TERMINAL_STATUSES.has(state.calls[id]!.status));
 */
export const TERMINAL_STATUSES: ReadonlySet<ToolCallStatus> = new Set(['settled', 'cancelled', 'failed']);

/**
 * Whether a call in this status has ended (and stays ended).
 *
 * @example
 * if (isTerminalStatus(call.status)) stopSpinner();
 */
export const isTerminalStatus = (status: ToolCallStatus): boolean => TERMINAL_STATUSES.has(status);

/** The phases after `start` (which creates the call and so has no row of its own). */
type LaterPhase = Exclude<ToolStreamPhase, 'start'>;

/**
 * Where each phase takes a call; a missing entry means the phase is out of order there.
 *
 * @example
 * CALL_TRANSITIONS.streaming['arguments-complete'] // 'issued'
 * CALL_TRANSITIONS.settled.progress // undefined: out of order
 */
export const CALL_TRANSITIONS: Readonly<Record<ToolCallStatus, Partial<Record<LaterPhase, ToolCallStatus>>>> = {
  pending: { 'arguments-delta': 'streaming', 'arguments-complete': 'issued', cancelled: 'cancelled', failed: 'failed' },
  streaming: { 'arguments-delta': 'streaming', 'arguments-complete': 'issued', cancelled: 'cancelled', failed: 'failed' },
  issued: { progress: 'issued', settled: 'settled', cancelled: 'cancelled' },
  settled: {},
  cancelled: {},
  failed: {},
};

/**
 * The status a phase leads to, or `undefined` when it is out of order for `status`.
 *
 * @example
 * nextCallStatus('pending', 'arguments-delta') // 'streaming'
 * nextCallStatus('settled', 'progress') // undefined
 */
export function nextCallStatus(status: ToolCallStatus, phase: LaterPhase): ToolCallStatus | undefined {
  return CALL_TRANSITIONS[status][phase];
}
