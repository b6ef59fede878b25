/**
 * What the page follows of a session besides tool calls: its status, its welcome and its turns.
 * Each is an external store over the session's own listeners, read with useSyncExternalStore.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { ToolSessionStatus } from 'toolgate/core';
import type { ReferenceSession, ReferenceWelcome } from 'toolgate/client';

export function useSessionStatus(session: ReferenceSession): ToolSessionStatus {
  const subscribe = useCallback((listener: () => void) => session.onStatusChange(listener), [session]);
  const read = () => session.status;
  return useSyncExternalStore(subscribe, read, read);
}

export function useWelcome(session: ReferenceSession): ReferenceWelcome | undefined {
  const subscribe = useCallback(
    (listener: () => void) =>
      session.onFrame((frame) => {
        if (frame.type === 'session.welcome') listener();
      }),
    [session],
  );
  const read = () => session.welcome;
  return useSyncExternalStore(subscribe, read, read);
}

export interface TurnInfo {
  readonly turnId: string;
  readonly prompt: string;
  readonly status: 'running' | 'completed' | 'interrupted' | 'failed' | 'closed';
}

export interface TurnsState {
  readonly active: TurnInfo | undefined;
  readonly turns: readonly TurnInfo[];
}

interface TurnTracker {
  subscribe(listener: () => void): () => void;
  getSnapshot(): TurnsState;
}

const trackers = new WeakMap<ReferenceSession, TurnTracker>();

/** One tracker per session, listening from the session's creation so no turn event is missed. */
export function trackTurns(session: ReferenceSession): TurnTracker {
  const existing = trackers.get(session);
  if (existing) return existing;
  let state: TurnsState = { active: undefined, turns: [] };
  const listeners = new Set<() => void>();
  const update = (turns: TurnInfo[]) => {
    state = { turns, active: turns.find((t) => t.status === 'running') };
    for (const listener of [...listeners]) listener();
  };
  session.subscribe((event) => {
    const e = event as { type?: unknown; turnId?: unknown; prompt?: unknown; status?: unknown };
    if (e.type === 'turn.started' && typeof e.turnId === 'string') {
      update([...state.turns, { turnId: e.turnId, prompt: String(e.prompt ?? ''), status: 'running' }]);
    } else if (e.type === 'turn.ended' && typeof e.turnId === 'string') {
      const status = e.status === 'interrupted' || e.status === 'failed' ? e.status : 'completed';
      update(state.turns.map((t) => (t.turnId === e.turnId ? { ...t, status } : t)));
    } else if (e.type === 'closed') {
      update(state.turns.map((t) => (t.status === 'running' ? { ...t, status: 'closed' } : t)));
    }
  });
  const tracker: TurnTracker = {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => state,
  };
  trackers.set(session, tracker);
  return tracker;
}

export function useTurns(session: ReferenceSession): TurnsState {
  const tracker = trackTurns(session);
  return useSyncExternalStore(tracker.subscribe, tracker.getSnapshot, tracker.getSnapshot);
}
