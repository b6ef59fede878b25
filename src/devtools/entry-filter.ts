/**
 * Which recorded entries a view shows: by call, by type and by turn, or only what was refused.
 * Pure, so the panel and a test agree on what a filter means.
 */
import type { DevtoolsEntry } from './recorder';

/**
 * A filter of the events list; an empty field shows everything.
 *
 * @example
 * const filter: DevtoolsFilter = { callId: 'c1', refusedOnly: true };
 */
export interface DevtoolsFilter {
  readonly callId?: string | undefined;
  readonly type?: string | undefined;
  readonly turnId?: string | undefined;
  /** Only frames the store refused and errors the client reported. */
  readonly refusedOnly?: boolean | undefined;
}

/** A refused frame (the reducer said no) or a reported error. */
export const isRefused = (entry: DevtoolsEntry): boolean => entry.verdict?.outcome === 'rejected' || entry.source === 'error';

/**
 * The entries `filter` keeps, in order.
 *
 * @example
 * const shown = filterEntries(entries, { type: 'tool.stream/settled', turnId: 't1' });
 */
export function filterEntries(entries: readonly DevtoolsEntry[], filter: DevtoolsFilter): DevtoolsEntry[] {
  return entries.filter(matcher(filter));
}

/** The test `filter` makes of one entry, made once per filter (a view runs it for each entry it reads). */
function matcher(filter: DevtoolsFilter): (entry: DevtoolsEntry) => boolean {
  const { callId, type, turnId, refusedOnly } = filter;
  return (entry) =>
    (!callId || entry.callId === callId) && (!type || entry.type === type) && (!turnId || entry.turnId === turnId) && (!refusedOnly || isRefused(entry));
}

/**
 * The calls, types and turns that occur in `entries`, sorted, for the filters' choices.
 *
 * @example
 * const { callIds, types, turnIds } = filterChoices(entries);
 */
export function filterChoices(entries: readonly DevtoolsEntry[]): { callIds: string[]; types: string[]; turnIds: string[] } {
  const callIds = new Set<string>();
  const types = new Set<string>();
  const turnIds = new Set<string>();
  for (const entry of entries) {
    if (entry.callId !== undefined) callIds.add(entry.callId);
    if (entry.turnId !== undefined) turnIds.add(entry.turnId);
    types.add(entry.type);
  }
  return { callIds: [...callIds], types: [...types].sort(), turnIds: [...turnIds] };
}

/**
 * A call's history: the entries that changed or tried to change it, each with the call's state
 * after it (`call`), in order.
 *
 * @example
 * const steps = callHistory(entries, 'c1');
 * steps.at(-1)?.call?.status; // where it stands now
 */
export function callHistory(entries: readonly DevtoolsEntry[], callId: string): DevtoolsEntry[] {
  return entries.filter((entry) => entry.callId === callId && (entry.source === 'session' || entry.source === 'page' || entry.source === 'answer'));
}

/**
 * The last `max` entries `filter` keeps among the first `length` of `entries`, in order, and
 * whether there are more: read from the end, so a view of a long session costs what it shows.
 *
 * @example
 * const { shown, more } = latestEntries(entries, length, { turnId: 't1' }, 300);
 */
export function latestEntries(
  entries: readonly DevtoolsEntry[],
  length: number,
  filter: DevtoolsFilter,
  max: number,
): { shown: DevtoolsEntry[]; more: boolean } {
  const keeps = matcher(filter);
  const shown: DevtoolsEntry[] = [];
  let i = Math.min(length, entries.length) - 1;
  for (; i >= 0 && shown.length < max; i--) {
    const entry = entries[i] as DevtoolsEntry;
    if (keeps(entry)) shown.push(entry);
  }
  let more = false;
  for (; i >= 0 && !more; i--) more = keeps(entries[i] as DevtoolsEntry);
  return { shown: shown.reverse(), more };
}

/**
 * `latestEntries`, kept from one frame to the next: while the entries grow under the same filter,
 * only the entries added since the last read are tested, not the latest `max` again. A live panel
 * reads once per frame while a session streams; testing 300 entries each frame was most of the
 * panel's own work in the bench's devtools section. Anything else (another filter, another list,
 * fewer entries: a cleared recording) reads from the end again.
 *
 * @example
 * const latest = createLatestEntries();
 * const { shown, more } = latest(entries, length, filter, 300); // each frame
 */
export function createLatestEntries(): typeof latestEntries {
  let last: { entries: readonly DevtoolsEntry[]; length: number; filter: DevtoolsFilter; max: number; result: { shown: DevtoolsEntry[]; more: boolean } } | undefined;
  return (entries, length, filter, max) => {
    const end = Math.min(length, entries.length);
    if (last !== undefined && last.entries === entries && last.filter === filter && last.max === max && last.length <= end) {
      if (last.length === end) return last.result;
      const keeps = matcher(filter);
      const added: DevtoolsEntry[] = [];
      for (let i = last.length; i < end; i++) {
        const entry = entries[i] as DevtoolsEntry;
        if (keeps(entry)) added.push(entry);
      }
      const previous = last.result;
      let result = previous;
      if (added.length > 0) {
        const all = previous.shown.length + added.length;
        const drop = Math.max(0, all - max);
        const shown = drop === 0 ? previous.shown.concat(added) : previous.shown.slice(drop).concat(added.slice(Math.max(0, drop - previous.shown.length)));
        result = { shown, more: previous.more || drop > 0 };
      }
      last = { entries, length: end, filter, max, result };
      return result;
    }
    const result = latestEntries(entries, end, filter, max);
    last = { entries, length: end, filter, max, result };
    return result;
  };
}

/**
 * `callHistory` over one call's entries as they grow (the recorder's `byCall` list): only the
 * entries added since the last read are tested. Another list or call reads it all again.
 *
 * @example
 * const history = createCallHistory();
 * const steps = history(recorder.getState().byCall.get('c1') ?? [], 'c1');
 */
export function createCallHistory(): typeof callHistory {
  let last: { entries: readonly DevtoolsEntry[]; callId: string; length: number; steps: DevtoolsEntry[] } | undefined;
  return (entries, callId) => {
    if (last !== undefined && last.entries === entries && last.callId === callId && last.length <= entries.length) {
      if (last.length === entries.length) return last.steps;
      const added = callHistory(entries.slice(last.length), callId);
      const steps = added.length === 0 ? last.steps : last.steps.concat(added);
      last = { entries, callId, length: entries.length, steps };
      return steps;
    }
    const steps = callHistory(entries, callId);
    last = { entries, callId, length: entries.length, steps };
    return steps;
  };
}
