/**
 * The statuses of a tool call. Kept apart from the lifecycle table (`call-lifecycle.ts`), which is
 * derived from the phase specs, so that the specs can name statuses without importing the table.
 */

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
 * Every status, in lifecycle order.
 *
 * @example
 * TOOL_CALL_STATUSES.map((status) => labels.status[status])
 */
export const TOOL_CALL_STATUSES: readonly ToolCallStatus[] = ['pending', 'streaming', 'issued', 'settled', 'cancelled', 'failed'];

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
