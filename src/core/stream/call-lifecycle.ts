/**
 * The life of one tool call, as a transition table: `status -> phase -> status`.
 *
 * (docs/protocol.md, "Rules of the stream"): every call starts with `start` and ends with exactly one of
 * `settled`, `cancelled` or `failed`, unless the session ends first. A model that does not
 * stream arguments goes straight from `start` to `arguments-complete`. `failed` means the
 * model stopped before completing the arguments, so it can only end a call that is not issued.
 *
 * The table is read off the phase specs (`tool-phases.ts`, each phase's `moves`): one place says
 * where a phase takes a call, and validation, the reducer and the testing builders read the same.
 */
import { TOOL_CALL_STATUSES, type ToolCallStatus } from './call-status';
import { TOOL_PHASES } from './tool-phases';
import { TOOL_STREAM_PHASES, type ToolStreamPhase } from '../wire';

export { isTerminalStatus, TERMINAL_STATUSES, TOOL_CALL_STATUSES, type ToolCallStatus } from './call-status';

/** The phases after `start` (which creates the call and so has no row of its own). */
type LaterPhase = Exclude<ToolStreamPhase, 'start'>;

/**
 * Where each phase takes a call; a missing entry means the phase is out of order there.
 *
 * @example
 * CALL_TRANSITIONS.streaming['arguments-complete'] // 'issued'
 * CALL_TRANSITIONS.settled.progress // undefined: out of order
 */
export const CALL_TRANSITIONS: Readonly<Record<ToolCallStatus, Partial<Record<LaterPhase, ToolCallStatus>>>> = /* @__PURE__ */ (() => {
  const table = {} as Record<ToolCallStatus, Partial<Record<LaterPhase, ToolCallStatus>>>;
  for (const status of TOOL_CALL_STATUSES) {
    const row: Partial<Record<LaterPhase, ToolCallStatus>> = {};
    for (const phase of TOOL_STREAM_PHASES) {
      const to = TOOL_PHASES[phase].moves[status];
      if (phase !== 'start' && to !== undefined) row[phase] = to;
    }
    table[status] = Object.freeze(row);
  }
  return Object.freeze(table);
})();

/**
 * The status a phase leads to, or `undefined` when it is out of order for `status`.
 *
 * @example
 * nextCallStatus('pending', 'arguments-delta') // 'streaming'
 * nextCallStatus('settled', 'progress') // undefined
 */
export function nextCallStatus(status: ToolCallStatus, phase: LaterPhase): ToolCallStatus | undefined {
  // Read off the spec itself (the table above is the same moves, for readers and tests; marked
  // pure so the store's bundle does not build it). Own keys only: a status read from a plain state
  // made elsewhere may be any string.
  const moves = TOOL_PHASES[phase].moves;
  return Object.prototype.hasOwnProperty.call(moves, status) ? moves[status] : undefined;
}
