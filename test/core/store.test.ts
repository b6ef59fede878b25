import { describe, expect, it, vi } from 'vitest';
import { createToolStreamStore, type ToolCall } from 'toolgate/core';
import { toolEvents as e } from 'toolgate/testing';

describe('createToolStreamStore', () => {
  it('holds the reducer state plus dispatch and interrupt', () => {
    const store = createToolStreamStore({ now: () => 5 });
    store.getState().dispatch(e.start('c1', { turnId: 't1' }));
    const state = store.getState();
    expect(state.order).toEqual(['c1']);
    expect(state.calls.c1?.startedAt).toBe(5);
    expect(typeof state.dispatch).toBe('function');
    expect(typeof state.interrupt).toBe('function');
    expect(store.getInitialState().order).toEqual([]);
  });

  it('notifies subscribers once per accepted event by default', () => {
    const store = createToolStreamStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.getState().dispatch(e.start('c1'));
    store.getState().dispatch(e.delta('c1', '{'));
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('does not notify for an ignored event, and reports a rejected one through onError with a clear reason', () => {
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    const listener = vi.fn();
    store.subscribe(listener);
    const before = store.getState();
    store.getState().dispatch({ type: 'message.delta' });
    store.getState().dispatch(e.delta('ghost', 'x'));
    store.getState().dispatch('garbage');
    expect(store.getState()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
    expect(onError.mock.calls.map(([reason, , issue]) => [issue, reason])).toEqual([
      ['unknown-call', "tool.stream arguments-delta for call 'ghost': no call 'ghost' has started"],
      ['malformed', 'an event must be an object, got a string'],
    ]);
  });

  it('reports argument text that is not JSON once, when it first goes wrong', () => {
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    const { dispatch } = store.getState();
    dispatch(e.start('c1'));
    dispatch(e.delta('c1', "{'a'"));
    dispatch(e.delta('c1', ': 1}'));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toMatch(/call 'c1': the argument text is not valid JSON: unexpected "'" at 1/);
    expect(onError.mock.calls[0]?.[2]).toBe('invalid-arguments');
  });

  it('never throws, whatever it is given', () => {
    const store = createToolStreamStore();
    for (const event of [undefined, null, 0, [], { type: null }, { get type(): string { throw new Error('boom'); } }]) {
      expect(() => store.getState().dispatch(event)).not.toThrow();
    }
  });

  it('interrupts a turn locally and at once: open calls are cancelled before the server says anything', () => {
    const store = createToolStreamStore();
    const { dispatch, interrupt } = store.getState();
    dispatch(e.start('a', { turnId: 't1' }));
    dispatch(e.start('b', { turnId: 't2' }));
    interrupt('t1');
    expect(store.getState().calls.a?.status).toBe('cancelled');
    expect(store.getState().calls.b?.status).toBe('pending');
    dispatch(e.delta('a', '{'));
    expect(store.getState().calls.a?.argumentsText).toBe('');
  });

  describe("coalesce: 'frame'", () => {
    it('keeps getState current but notifies at most once per frame', () => {
      const frames: (() => void)[] = [];
      const store = createToolStreamStore({ coalesce: 'frame', scheduleFrame: (f) => frames.push(f) });
      const listener = vi.fn();
      store.subscribe(listener);
      const { dispatch } = store.getState();
      dispatch(e.start('c1'));
      for (const ch of '{"a": "hello"}') dispatch(e.delta('c1', ch));
      expect(store.getState().calls.c1?.argumentsText).toBe('{"a": "hello"}');
      expect(listener).not.toHaveBeenCalled();
      expect(frames).toHaveLength(1);
      frames.shift()?.();
      expect(listener).toHaveBeenCalledTimes(1);
      const [state, previous] = listener.mock.calls[0] as [{ calls: Record<string, ToolCall> }, { calls: Record<string, ToolCall> }];
      expect(state.calls.c1?.partialArguments).toEqual({ a: 'hello' });
      expect(previous.calls.c1).toBeUndefined();
    });

    it('flushes on demand, and stops notifying an unsubscribed listener', () => {
      const store = createToolStreamStore({ coalesce: 'frame', scheduleFrame: () => {} });
      const listener = vi.fn();
      const off = store.subscribe(listener);
      store.getState().dispatch(e.start('c1'));
      store.flush();
      expect(listener).toHaveBeenCalledTimes(1);
      off();
      store.getState().dispatch(e.start('c2'));
      store.flush();
      expect(listener).toHaveBeenCalledTimes(1);
    });
  });

  it('releases the parser once arguments are complete: memory is bounded by the final value', () => {
    const store = createToolStreamStore();
    const { dispatch } = store.getState();
    dispatch(e.start('c1'));
    dispatch(e.delta('c1', '{"a": [1, 2'));
    dispatch(e.delta('c1', ', 3]}'));
    dispatch(e.complete('c1', { a: [1, 2, 3] }));
    const call = store.getState().calls.c1 as ToolCall;
    // The preview is the final value itself, not a second copy built by a parser.
    expect(call.partialArguments).toBe(call.arguments);
  });
});
