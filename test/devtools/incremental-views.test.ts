import { describe, expect, it } from 'vitest';
import { callHistory, latestEntries, type DevtoolsEntry, type DevtoolsFilter } from 'toolgate/devtools';
import { createCallHistory, createLatestEntries } from '../../src/devtools/entry-filter';

// Entries of a few calls and turns, some refused: what the filters look at.
function entryAt(index: number): DevtoolsEntry {
  const callId = `c${(index * 7) % 5}`;
  return {
    index,
    source: index % 11 === 0 ? 'answer' : 'session',
    at: index,
    type: index % 3 === 0 ? 'tool.stream/start' : 'tool.stream/arguments-delta',
    payload: {},
    callId,
    turnId: `t${(index * 7) % 5 < 2 ? 1 : 2}`,
    verdict: index % 13 === 0 ? { outcome: 'rejected', issue: 'unknown-call', reason: 'no call' } : { outcome: 'applied' },
    reason: undefined,
    code: undefined,
    call: undefined,
    state: undefined,
  } as DevtoolsEntry;
}

describe('the panel’s views kept across frames read what a fresh read reads', () => {
  it('createLatestEntries: the same shown entries and `more` as latestEntries as a recording grows, filters change and it is cleared', () => {
    const latest = createLatestEntries();
    const filters: DevtoolsFilter[] = [{}, { turnId: 't1' }, { callId: 'c3' }, { refusedOnly: true }, { type: 'tool.stream/start', turnId: 't2' }];
    let entries: DevtoolsEntry[] = [];
    let checked = 0;
    for (let step = 0; step < 400; step++) {
      // Grow by a varying amount (0 to 40 at once); now and then a new recording (cleared).
      if (step % 97 === 96) entries = [];
      const grow = (step * 13) % 41;
      for (let i = 0; i < grow; i++) entries.push(entryAt(entries.length));
      const filter = filters[Math.floor(step / 30) % filters.length] as DevtoolsFilter;
      for (const max of [step % 50 === 0 ? 7 : 25]) {
        const length = entries.length - (step % 5 === 0 ? Math.min(3, entries.length) : 0);
        const kept = latest(entries, length, filter, max);
        const fresh = latestEntries(entries, length, filter, max);
        expect(kept.shown.map((e) => e.index), `step ${step}`).toEqual(fresh.shown.map((e) => e.index));
        expect(kept.more, `step ${step}`).toBe(fresh.more);
        checked++;
      }
    }
    expect(checked).toBe(400);
  });

  it('createCallHistory: the same steps as callHistory as a call’s list grows and another call is chosen', () => {
    const history = createCallHistory();
    const lists = new Map<string, DevtoolsEntry[]>();
    for (let index = 0; index < 600; index++) {
      const entry = entryAt(index);
      const list = lists.get(entry.callId as string) ?? [];
      list.push(entry);
      lists.set(entry.callId as string, list);
      const callId = `c${Math.floor(index / 100) % 5}`;
      const entries = lists.get(callId) ?? [];
      expect(history(entries, callId).map((e) => e.index), `entry ${index}`).toEqual(callHistory(entries, callId).map((e) => e.index));
    }
  });
});
