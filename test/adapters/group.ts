/** Group adapter events by call, in the order the calls started. Works in any environment. */
import type { ToolStreamEvent } from 'toolgate/core';

export interface ReplayedCall {
  callId: string;
  name: string;
  turnId: string;
  location: string | undefined;
  deltas: string[];
  /** Every event of the call, in order. */
  events: ToolStreamEvent[];
  /** How the call's arguments ended (or `open` when nothing ended them). */
  outcome: 'complete' | 'failed' | 'open';
  arguments: unknown;
  message: string | undefined;
}

export interface Grouped {
  events: ToolStreamEvent[];
  calls: ReplayedCall[];
  /** Events for a callId that never started. */
  orphans: ToolStreamEvent[];
  /**
   * A `start` for a callId that had already started. The call keeps its first start (and is
   * listed once), so a test that expects none must check this list.
   */
  repeatedStarts: ToolStreamEvent[];
}

export function group(events: ToolStreamEvent[]): Grouped {
  const byId = new Map<string, ReplayedCall>();
  const orphans: ToolStreamEvent[] = [];
  const repeatedStarts: ToolStreamEvent[] = [];
  for (const e of events) {
    if (e.phase === 'start' && byId.has(e.callId)) {
      // Not replaced: replacing would hide that the call was shown twice.
      repeatedStarts.push(e);
      byId.get(e.callId)!.events.push(e);
      continue;
    }
    if (e.phase === 'start') {
      byId.set(e.callId, {
        callId: e.callId,
        name: e.name,
        turnId: e.turnId,
        location: e.location,
        deltas: [],
        events: [e],
        outcome: 'open',
        arguments: undefined,
        message: undefined,
      });
      continue;
    }
    const call = byId.get(e.callId);
    if (call === undefined) {
      orphans.push(e);
      continue;
    }
    call.events.push(e);
    if (e.phase === 'arguments-delta') call.deltas.push(e.delta);
    if (e.phase === 'arguments-complete') {
      call.outcome = 'complete';
      call.arguments = e.arguments;
    }
    if (e.phase === 'failed' && call.outcome === 'open') {
      call.outcome = 'failed';
      call.message = e.message;
    }
  }
  return { events, calls: [...byId.values()], orphans, repeatedStarts };
}
