/**
 * The controller's live requests: the one shown, those waiting behind it in order, and those that
 * run without being shown (a call that needs no confirmation, one a standing grant or "Approve
 * all" answered). Internal to the flow.
 */

import type { Entry } from './confirmation-request';
import type { ConfirmationTarget } from './confirmation-types';

export interface Queue {
  current(): Entry | null;
  waiting(): readonly Entry[];
  all(): Entry[];
  /** The live request with this id, wherever it is. */
  get(id: string): Entry | undefined;
  add(entry: Entry): void;
  remove(entry: Entry): void;
  /** Take a request out of line without ending it: it runs unseen and is never shown. */
  unqueue(entry: Entry): void;
  /**
   * Bring a waiting request forward: shown now when `replace` (the one shown goes back to the head
   * of the line), else first in line.
   */
  promote(entry: Entry, replace: boolean): void;
  /** Make the first waiting request the shown one when none is; returns the newly shown one. */
  advance(): Entry | null;
  /** The shown request; with an id, only when it is the shown one (a late "yes" never approves the next). */
  shown(target: ConfirmationTarget | undefined): Entry | null;
  /** The shown request, or with an id any live one (deny works on a waiting request too). */
  any(target: ConfirmationTarget | undefined): Entry | null;
}

export function createQueue(): Queue {
  const live = new Map<string, Entry>();
  const waiting: Entry[] = [];
  let current: Entry | null = null;
  const idOf = (target: ConfirmationTarget | undefined): string | undefined => {
    if (typeof target !== 'object' || target === null) return undefined;
    if (typeof target.requestId === 'string' || typeof target.callId !== 'string') return target.requestId;
    // By the call it guards: the live request of that call, else an id that names none.
    for (const entry of live.values()) if (entry.input.callId === target.callId) return entry.id;
    return `no request guards call ${target.callId}`;
  };
  const unqueue = (entry: Entry): void => {
    const at = waiting.indexOf(entry);
    if (at >= 0) waiting.splice(at, 1);
    if (current === entry) current = null;
  };
  return {
    current: () => current,
    waiting: () => waiting,
    all: () => [...live.values()],
    get: (id) => live.get(id),
    add(entry) {
      live.set(entry.id, entry);
      if (!entry.direct) waiting.push(entry);
    },
    remove(entry) {
      live.delete(entry.id);
      unqueue(entry);
    },
    unqueue,
    promote(entry, replace) {
      const at = waiting.indexOf(entry);
      if (at < 0) return;
      waiting.splice(at, 1);
      if (!replace) return void waiting.unshift(entry);
      if (current !== null) waiting.unshift(current);
      current = entry;
    },
    advance() {
      if (current !== null || waiting.length === 0) return null;
      current = waiting.shift() as Entry;
      return current;
    },
    shown(target) {
      const id = idOf(target);
      return id === undefined || current?.id === id ? current : null;
    },
    any(target) {
      const id = idOf(target);
      return id === undefined ? current : (live.get(id) ?? null);
    },
  };
}
