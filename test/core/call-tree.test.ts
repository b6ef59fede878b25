import { describe, expect, it } from 'vitest';
import { callKey, createEntrySelector, flattenCallTree, parentRowIndex, turnKey, type CallTreeEntry } from '../../src/core/stream/call-tree';
import { createToolStreamStore, type ToolCall } from 'toolgate';
import { toolEvents as e } from 'toolgate/testing';

const entry = (callId: string, more: Partial<CallTreeEntry> = {}): CallTreeEntry => ({ callId, name: `n_${callId}`, turnId: 't1', parentCallId: undefined, status: 'issued', ...more });
const outline = (rows: ReturnType<typeof flattenCallTree>) =>
  rows.map((row) => `${'  '.repeat(row.level - 1)}${row.kind === 'turn' ? `turn ${row.turnId || '-'}` : row.callId} ${row.position}/${row.setSize}${row.expanded === undefined ? '' : row.expanded ? ' open' : ' closed'}${row.kind === 'call' && !row.match ? ' (context)' : ''}`);

describe('the call tree of a list', () => {
  it('nests each call under its parent, turns first, in the order calls began', () => {
    const rows = flattenCallTree([
      entry('research'),
      entry('search', { parentCallId: 'research' }),
      entry('other', { turnId: 't2' }),
      entry('read', { parentCallId: 'search' }),
      entry('write', { parentCallId: 'research' }),
    ]);
    expect(outline(rows)).toEqual([
      'turn t1 1/2 open',
      '  research 1/1 open',
      '    search 1/2 open',
      '      read 1/1',
      '    write 2/2',
      'turn t2 2/2 open',
      '  other 1/1',
    ]);
    expect(rows.map((row) => row.level)).toEqual([1, 2, 3, 4, 3, 1, 2]);
  });

  it('leaves a call at the top of its turn when its parent is unknown or began after it, so ids can make no cycle', () => {
    const rows = flattenCallTree([entry('a', { parentCallId: 'b' }), entry('b', { parentCallId: 'a' }), entry('c', { parentCallId: 'ghost' })]);
    expect(outline(rows)).toEqual(['turn t1 1/1 open', '  a 1/2 open', '    b 1/1', '  c 2/2']);
    expect(rows.find((row) => row.kind === 'call' && row.callId === 'c')).toMatchObject({ parentCallId: undefined });
  });

  it('flattens nesting ten thousand deep without running out of stack', () => {
    const entries = Array.from({ length: 10_000 }, (_, i) => entry(`c${i}`, { parentCallId: i ? `c${i - 1}` : undefined }));
    const rows = flattenCallTree(entries);
    expect(rows).toHaveLength(10_001);
    expect(rows[10_000]).toMatchObject({ callId: 'c9999', level: 10_001 });
  });

  it('hides what is under a closed row, and says the row is closed', () => {
    const entries = [entry('research'), entry('search', { parentCallId: 'research' }), entry('later', { turnId: 't2' })];
    expect(outline(flattenCallTree(entries, { collapsed: new Set([callKey('research')]) }))).toEqual(['turn t1 1/2 open', '  research 1/1 closed', 'turn t2 2/2 open', '  later 1/1']);
    expect(outline(flattenCallTree(entries, { collapsed: new Set([turnKey('t1')]) }))).toEqual(['turn t1 1/2 closed', 'turn t2 2/2 open', '  later 1/1']);
  });

  it('filters by status and name, keeping the calls that lead to a match, and counts only shown siblings', () => {
    const entries = [
      entry('research', { name: 'investigate', status: 'issued' }),
      entry('s1', { name: 'web_search', parentCallId: 'research', status: 'settled' }),
      entry('s2', { name: 'web_search', parentCallId: 'research', status: 'issued' }),
      entry('w', { name: 'write_file', status: 'issued', turnId: 't2' }),
    ];
    expect(outline(flattenCallTree(entries, { filter: { name: 'SEARCH', statuses: ['issued'] } }))).toEqual(['turn t1 1/1 open', '  research 1/1 open (context)', '    s2 1/1']);
    expect(outline(flattenCallTree(entries, { filter: { statuses: ['issued'] } }))).toEqual([
      'turn t1 1/2 open',
      '  research 1/1 open',
      '    s2 1/1',
      'turn t2 2/2 open',
      '  w 1/1',
    ]);
    // A blank name and no status filter nothing.
    expect(flattenCallTree(entries, { filter: { name: '  ', statuses: [] } })).toHaveLength(6);
  });

  it('numbers turns in the order they began, whatever the filter hides', () => {
    const rows = flattenCallTree([entry('a', { turnId: 't1' }), entry('b', { turnId: 't2', name: 'keep' })], { filter: { name: 'keep' } });
    expect(rows[0]).toMatchObject({ kind: 'turn', turnId: 't2', turnNumber: 2, position: 1, setSize: 1 });
  });

  it('finds the row a row is nested under', () => {
    const rows = flattenCallTree([entry('p'), entry('c', { parentCallId: 'p' }), entry('d')]);
    expect(rows.map((_, i) => parentRowIndex(rows, i))).toEqual([-1, 0, 1, 0]);
  });
});

describe('the entries a list reads from the store', () => {
  const read = (store: ReturnType<typeof createToolStreamStore>, select: ReturnType<typeof createEntrySelector>) => {
    const state = store.getState();
    return select(state.order, (id) => state.calls[id] as ToolCall | undefined);
  };

  it('stay the same array while arguments stream, and change when a call begins', () => {
    const store = createToolStreamStore();
    const { dispatch } = store.getState();
    const select = createEntrySelector(false);
    dispatch(e.start('a', { name: 'write', turnId: 't1' }));
    const first = read(store, select);
    dispatch(e.delta('a', '{"text":"he'));
    dispatch(e.delta('a', 'llo"}'));
    expect(read(store, select)).toBe(first);
    dispatch(e.start('b', { name: 'read', turnId: 't1', parentCallId: 'a' }));
    const second = read(store, select);
    expect(second).not.toBe(first);
    expect(second.map((x) => [x.callId, x.parentCallId])).toEqual([['a', undefined], ['b', 'a']]);
  });

  it('change with a status only when the filter reads statuses', () => {
    const store = createToolStreamStore();
    const { dispatch } = store.getState();
    const plain = createEntrySelector(false);
    const byStatus = createEntrySelector(true);
    dispatch(e.start('a', { name: 'write' }));
    const [p, s] = [read(store, plain), read(store, byStatus)];
    dispatch(e.delta('a', '{}'));
    expect(read(store, plain)).toBe(p);
    expect(read(store, byStatus)).not.toBe(s);
    expect(read(store, byStatus)[0]?.status).toBe('streaming');
  });
});
