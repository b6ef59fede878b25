import { describe, expect, it } from 'vitest';
import { createToolgate, type ToolStreamState } from 'toolgate/core';
import { createDevtoolsRecorder } from 'toolgate/devtools';
import { toolEvents as e } from 'toolgate/testing';

describe('createDevtoolsRecorder: entries read what happened when they happened', () => {
  it('gives each entry the call and the state as they were right after it, though later events changed both', () => {
    let clock = 100;
    const client = createToolgate({ storeOptions: { now: () => clock++ } });
    const recorder = createDevtoolsRecorder(client, { scheduleFrame: (flush) => flush() });
    const dispatch = client.calls.getState().dispatch;
    dispatch(e.start('c1', { name: 'search', turnId: 't1' }));
    dispatch(e.delta('c1', '{"q":'));
    dispatch(e.delta('c1', '"cats"}'));
    dispatch(e.complete('c1', { q: 'cats' }));
    dispatch(e.settled('c1'));
    recorder.flush();
    const { entries, length } = recorder.getState();
    expect(length).toBe(5);
    // Read only now, after the call settled: each entry still shows its own moment.
    expect(entries.map((entry) => entry.call?.status)).toEqual(['pending', 'streaming', 'streaming', 'issued', 'settled']);
    expect(entries.map((entry) => entry.call?.argumentsText)).toEqual(['', '{"q":', '{"q":"cats"}', '{"q":"cats"}', '{"q":"cats"}']);
    expect(entries[2]?.call?.partialArguments).toEqual({ q: 'cats' });
    expect(entries[1]?.state?.calls['c1']?.argumentsText).toBe('{"q":');
    expect(entries.map((entry) => [entry.index, entry.source, entry.at, entry.type, entry.callId, entry.turnId])).toEqual([
      [0, 'session', 100, 'tool.stream/start', 'c1', 't1'],
      [1, 'session', 101, 'tool.stream/arguments-delta', 'c1', 't1'],
      [2, 'session', 102, 'tool.stream/arguments-delta', 'c1', 't1'],
      [3, 'session', 103, 'tool.stream/arguments-complete', 'c1', 't1'],
      [4, 'session', 104, 'tool.stream/settled', 'c1', 't1'],
    ]);
    // The same call object each time it is read (a view compares them).
    expect(entries[1]?.call).toBe(entries[1]?.call);
    expect(entries[0]?.payload).toEqual(e.start('c1', { name: 'search', turnId: 't1' }));
  });

  it('keeps a refused frame’s reason and code, and a reported error’s', () => {
    const client = createToolgate();
    const recorder = createDevtoolsRecorder(client, { scheduleFrame: (flush) => flush() });
    client.calls.getState().dispatch(e.delta('nobody', '{'));
    client.calls.getState().dispatch({ type: 'something.else' });
    recorder.flush();
    const [refused, ignored] = recorder.getState().entries;
    expect(refused?.verdict?.outcome).toBe('rejected');
    expect(refused?.code).toBe('unknown-call');
    expect(refused?.reason).toEqual(expect.any(String));
    expect(refused?.reason?.length).toBeGreaterThan(0);
    expect(refused?.call).toBeUndefined();
    expect(ignored?.verdict?.outcome).toBe('ignored');
    expect(ignored?.reason).toEqual(expect.any(String));
    expect(ignored?.code).toBeUndefined();
  });

  it('gives every entry the store’s whole state after it, checkpoint or not, in a session longer than a checkpoint’s stride', () => {
    let clock = 1_000;
    const client = createToolgate({ storeOptions: { now: () => (clock += 7) } });
    const plain = (state: ToolStreamState | undefined) =>
      state === undefined ? undefined : (JSON.parse(JSON.stringify({ calls: state.calls, order: state.order, closed: state.closed })) as unknown);
    const live: unknown[] = [];
    client.onEvent((entry) => live.push(entry.source === 'session' || entry.source === 'page' ? plain(entry.state) : undefined));
    const recorder = createDevtoolsRecorder(client, { scheduleFrame: (flush) => flush(), limit: Infinity });
    const { dispatch, interrupt } = client.calls.getState();
    for (const id of ['a', 'b', 'c']) dispatch(e.start(id, { name: 'write', turnId: id === 'c' ? 't2' : 't1' }));
    // Longer than a checkpoint's stride (256 entries), so most entries are made again on read.
    for (let i = 0; i < 100; i++) for (const id of ['a', 'b', 'c']) dispatch(e.delta(id, i === 0 ? '{"text":"' : `x${i}`));
    dispatch(e.delta('a', '"}'));
    dispatch(e.complete('a', { text: 'ignored: the streamed text differs' }));
    dispatch(e.delta('missing', 'refused'));
    interrupt('t1');
    dispatch(e.settled('c'));
    recorder.flush();
    const { entries, length } = recorder.getState();
    expect(length).toBe(live.length);
    expect(length).toBeGreaterThan(300);
    entries.forEach((entry, i) => expect(plain(entry.state), `entry ${i}`).toEqual(live[i]));
    // And each entry's call is that call in the live state right after it.
    const plainCall = (call: unknown) => (call === undefined ? undefined : (JSON.parse(JSON.stringify(call)) as unknown));
    entries.forEach((entry, i) => {
      const calls = (live[i] as { calls: Record<string, unknown> } | undefined)?.calls;
      if (entry.callId !== undefined) expect(plainCall(entry.call), `entry ${i}`).toEqual(calls?.[entry.callId]);
    });
    expect(entries[280]?.call?.argumentsText).toMatch(/^\{"text":"x1x2/);
    expect(entries.at(-2)?.type).toBe('page/interrupt');
    expect(entries.at(-2)?.state?.calls['b']?.status).toBe('cancelled');
  });
});
