/**
 * Contract objects are plain data: a call and a state survive a spread, `structuredClone` and
 * `JSON.stringify` with every field, while previews and the calls record stay built on first read.
 */
import { describe, expect, it } from 'vitest';
import { createToolStreamStore, type ToolCall, type ToolStreamState } from 'toolgate/core';
import { initialToolStreamState, reduceToolEvent } from 'toolgate/testing';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';

const streaming = (): ToolStreamState =>
  [e.start('c1', { name: 'search', turnId: 't1' }), e.delta('c1', '{"q":"ca'), ...callEvents('c2', { arguments: { n: 1 } })].reduce<ToolStreamState>(
    (s, event) => reduceToolEvent(s, event, { now: 1 }),
    initialToolStreamState(),
  );

const EXPECTED = { callId: 'c1', name: 'search', status: 'streaming', argumentsText: '{"q":"ca', partialArguments: { q: 'ca' }, writingPath: ['q'] };

describe('a call is plain data', () => {
  it('keeps argumentsText, partialArguments and writingPath through a spread', () => {
    const call = callOf(streaming(), 'c1') as ToolCall;
    expect({ ...call }).toMatchObject(EXPECTED);
    expect(Object.keys({ ...call })).toEqual(Object.keys(call));
  });

  it('keeps them through structuredClone', () => {
    const call = callOf(streaming(), 'c1') as ToolCall;
    const copy = structuredClone(call);
    expect(copy).toMatchObject(EXPECTED);
    expect(copy).toEqual({ ...call });
  });

  it('keeps them through JSON.stringify', () => {
    const call = callOf(streaming(), 'c1') as ToolCall;
    expect(JSON.parse(JSON.stringify(call))).toMatchObject(EXPECTED);
  });

  it('is frozen, a plain object, and the same object on every read of that state', () => {
    const state = streaming();
    const call = callOf(state, 'c1') as ToolCall;
    expect(Object.isFrozen(call)).toBe(true);
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype);
    expect(state.calls.c1).toBe(call);
    expect(callOf(state, 'c1')).toBe(call);
  });
});

describe('a state is plain data', () => {
  it('keeps calls and order through a spread', () => {
    const state = streaming();
    const spread = { ...state };
    expect(spread.calls).toBe(state.calls);
    expect(spread.order).toEqual(['c1', 'c2']);
    expect(spread.calls.c1?.argumentsText).toBe('{"q":"ca');
  });

  it('keeps calls and order through structuredClone and JSON.stringify', () => {
    const state = streaming();
    const cloned = structuredClone(state);
    expect(cloned.order).toEqual(['c1', 'c2']);
    expect(cloned.calls.c1).toMatchObject(EXPECTED);
    const json = JSON.parse(JSON.stringify(state)) as ToolStreamState;
    expect(json.order).toEqual(['c1', 'c2']);
    expect(json.calls.c2).toMatchObject({ status: 'settled', arguments: { n: 1 }, partialArguments: { n: 1 } });
  });

  it('reads order as a plain frozen array, the same object until a call is added', () => {
    const state = streaming();
    const order = state.order;
    expect(Array.isArray(order) && Object.isFrozen(order)).toBe(true);
    const next = reduceToolEvent(state, e.delta('c1', 'ts"}'));
    expect(next.order).toBe(order);
    expect(reduceToolEvent(next, e.start('c3')).order).toEqual(['c1', 'c2', 'c3']);
    expect(next.order).toBe(order);
  });

  it("keeps working after zustand's setState merges the state into a plain object", () => {
    const store = createToolStreamStore();
    for (const event of callEvents('c1', { arguments: { q: 1 }, outcome: 'open' })) store.getState().dispatch(event);
    store.setState({ note: 'the app keeps its own field here' } as never);
    expect(store.getState().calls.c1?.status).toBe('issued');
    store.getState().dispatch(e.settled('c1', true));
    store.getState().dispatch(e.start('c2'));
    expect(store.getState().order).toEqual(['c1', 'c2']);
    expect(store.getState().calls.c1?.status).toBe('settled');
    expect((store.getState() as unknown as { note: string }).note).toBe('the app keeps its own field here');
  });

  it('is reduced again from a plain JSON copy of itself (a state made elsewhere)', () => {
    const copy = JSON.parse(JSON.stringify(streaming())) as ToolStreamState;
    const next = reduceToolEvent(copy, e.delta('c1', 'ts"}'));
    expect(callOf(next, 'c1')).toMatchObject({ argumentsText: '{"q":"cats"}', partialArguments: { q: 'cats' } });
    expect(next.order).toEqual(['c1', 'c2']);
  });
});
