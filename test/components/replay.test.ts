import { describe, expect, it } from 'vitest';
import { createToolStreamStore } from 'toolgate';
import {
  argumentDeltas,
  callEvents,
  createManualClock,
  createScriptedSession,
  eventScript,
  interleave,
  pause,
  replayEvents,
  toolEvents as e,
  waitForState,
} from 'toolgate/testing';

describe('replayEvents', () => {
  it('replays events instantly by default, and pauses move the store clock', async () => {
    const clock = createManualClock({ start: 1000 });
    const store = createToolStreamStore({ now: clock.now });
    const sent = await replayEvents(store, [e.start('a'), pause(250), ...callEvents('a', { arguments: { x: 1 } }).slice(1)], { clock });
    expect(sent).toBe(callEvents('a', { arguments: { x: 1 } }).length);
    const call = store.getState().calls['a'];
    expect(call?.status).toBe('settled');
    expect([call?.startedAt, call?.endedAt]).toEqual([1000, 1250]);
  });

  it('starts after the caller returns and stops quietly when aborted', async () => {
    const store = createToolStreamStore();
    const controller = new AbortController();
    const done = replayEvents(store, [e.start('a'), e.start('b')], { signal: controller.signal });
    controller.abort();
    expect(await done).toBe(0);
    expect(store.getState().order).toEqual([]);
  });

  it('streams a long text lazily and lets the page breathe between batches', async () => {
    const store = createToolStreamStore();
    const text = JSON.stringify({ body: 'x'.repeat(100_000) });
    let macrotasks = 0;
    const setTimeout = (callback: () => void, ms: number) => (macrotasks++, globalThis.setTimeout(callback, ms));
    await replayEvents(store, [e.start('a'), ...argumentDeltas('a', text, 4), e.complete('a', text)], { batch: 5000, setTimeout });
    expect(store.getState().calls['a']?.argumentsText).toBe(text);
    expect(macrotasks).toBeGreaterThan(5);
  });

  it('interleaves calls round-robin and turns items into a scripted session', async () => {
    expect([...interleave<unknown>([1, 2, 3], ['a'], [true, false])]).toEqual([1, 'a', true, 2, false, 3]);
    const session = createScriptedSession({ script: eventScript([e.start('a'), pause(10), e.closed()]) });
    const store = createToolStreamStore();
    session.subscribe(store.getState().dispatch);
    void session.play();
    await waitForState(store, (s) => s.closed);
    expect(session.emitted).toHaveLength(2);
  });

  it('waits on state, not time, and can be aborted', async () => {
    const store = createToolStreamStore();
    const waiting = waitForState(store, (s) => s.order.length === 2);
    store.getState().dispatch(e.start('a'));
    store.getState().dispatch(e.start('b'));
    await waiting;
    const controller = new AbortController();
    const never = waitForState(store, (s) => s.closed, { signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(never).rejects.toThrow('gone');
  });
});
