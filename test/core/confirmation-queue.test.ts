import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, type ToolDescriptor } from 'toolgate/core';
import { createScriptedRoom } from 'toolgate/testing';
import { deferred, isDeepFrozen, record, settleAll, shown, until } from './confirmation-helpers';

const write: ToolDescriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true };

describe('the confirmation queue', () => {
  it('shows one request at a time and says how many wait', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const outcomes = ['a', 'b', 'c'].map((toolName) => confirmations.request({ toolName, arguments: { toolName }, descriptor: write }));

    const first = await shown(confirmations);
    let state = confirmations.getState();
    expect(first.toolName).toBe('a');
    expect(state.waiting).toBe(2);
    expect(state.queue.map((v) => v.toolName)).toEqual(['b', 'c']);
    expect(state.queue.every((v) => v.status === 'idle' && !v.can.approve)).toBe(true);

    confirmations.approve();
    await outcomes[0];
    const second = await until(confirmations, (s) => s.current?.toolName === 'b' && s.current.status === 'reviewing');
    expect(second.waiting).toBe(1);

    confirmations.deny();
    await outcomes[1];
    state = await until(confirmations, (s) => s.current?.toolName === 'c' && s.current.status === 'reviewing');
    expect(state.waiting).toBe(0);
    expect(state.queue).toEqual([]);
    confirmations.approve();
    await outcomes[2];
    expect(confirmations.getState()).toMatchObject({ status: 'idle', current: null, waiting: 0 });
  });

  it('keeps a refused, failed or uncertain request shown until dismissed, then shows the next', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'fail-invoke', reason: 'nope' }] });
    const confirmations = createConfirmationController({ room });
    const first = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    const second = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    await shown(confirmations, 'failed');
    await settleAll();
    expect(confirmations.getState()).toMatchObject({ status: 'failed', waiting: 1 });

    let firstSettled = false;
    void first.then(() => (firstSettled = true));
    await settleAll();
    expect(firstSettled).toBe(false);

    expect(confirmations.dismiss({ requestId: 'someone-else' })).toBe(false);
    expect(confirmations.dismiss()).toBe(true);
    expect(await first).toEqual({ status: 'failed', reason: 'nope' });
    const next = await shown(confirmations);
    expect(next.toolName).toBe('b');
    confirmations.deny();
    await second;
  });

  it('approves only the request shown, and only when the id matches if one is given', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const a = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    const b = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write });
    const shownA = await shown(confirmations);
    const waitingB = confirmations.getState().queue[0];
    expect(waitingB?.toolName).toBe('b');

    expect(confirmations.approve({ requestId: waitingB?.id as string })).toBe(false);
    expect(confirmations.approve({ requestId: shownA.id })).toBe(true);
    await a;
    await shown(confirmations);
    // A late "yes" meant for a, arriving once b is shown, approves nothing.
    expect(confirmations.approve({ requestId: shownA.id })).toBe(false);
    expect(confirmations.getState().current?.status).toBe('reviewing');
    confirmations.deny(undefined, { requestId: waitingB?.id as string });
    expect(await b).toEqual({ status: 'denied' });
  });

  it('denies a waiting request by id without disturbing the one shown', async () => {
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room });
    const a = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    const b = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write });
    const shownA = await shown(confirmations);
    const waitingB = confirmations.getState().queue[0];

    expect(confirmations.deny('not that one', { requestId: waitingB?.id as string })).toBe(true);
    expect(await b).toEqual({ status: 'denied', reason: 'not that one' });
    expect(confirmations.getState()).toMatchObject({ current: shownA, waiting: 0 });
    confirmations.approve();
    expect((await a).status).toBe('done');
    expect(room.calls.map((c) => c.toolName)).toEqual(['a', 'a']);
  });

  it('lets a withdrawn request leave the queue, and rejects its promise with the signal’s reason', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const first = new AbortController();
    const second = new AbortController();
    const a = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write, signal: first.signal });
    const b = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write, signal: second.signal });
    const c = confirmations.request({ toolName: 'c', arguments: {}, descriptor: write });
    await shown(confirmations);

    second.abort(new Error('turn interrupted'));
    await expect(b).rejects.toThrow('turn interrupted');
    expect(confirmations.getState().queue.map((v) => v.toolName)).toEqual(['c']);

    first.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect((await shown(confirmations)).toolName).toBe('c');
    confirmations.deny();
    await c;
  });

  it('does not queue a request whose signal is already aborted', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const signal = AbortSignal.abort(new Error('too late'));
    await expect(confirmations.request({ toolName: 'a', arguments: {}, signal })).rejects.toThrow('too late');
    expect(confirmations.getState()).toBe(confirmations.getInitialState());
  });

  it('withdraws every request not yet approved with withdrawAll, and leaves an approved one running', async () => {
    const gate = deferred();
    const room = createScriptedRoom({ delayMs: 1, sleep: () => gate.promise });
    const confirmations = createConfirmationController({ room });
    const a = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    const b = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write });
    const c = confirmations.request({ toolName: 'c', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    expect(confirmations.withdrawAll('session closed')).toBe(2);
    await expect(b).rejects.toThrow('session closed');
    await expect(c).rejects.toThrow('session closed');
    gate.resolve();
    expect((await a).status).toBe('done');
  });

  it('does nothing on approve before the fingerprint is ready (the request is still idle)', async () => {
    const digest = deferred<ArrayBuffer>();
    const subtle = { digest: vi.fn(() => digest.promise) } as unknown as SubtleCrypto;
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room, crypto: { subtle } });
    const outcome = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    expect(confirmations.getState().current).toMatchObject({ status: 'idle', fingerprint: null });
    expect(confirmations.approve()).toBe(false);
    digest.resolve(new Uint8Array(32).fill(0xab).buffer);
    const view = await shown(confirmations);
    expect(view.fingerprint).toEqual({ hex: 'ab'.repeat(32), short: 'abab abab abab' });
    confirmations.approve();
    expect(await outcome).toMatchObject({ status: 'done', fingerprint: 'ab'.repeat(32) });
  });

  it('can be denied while its fingerprint is still being computed', async () => {
    const digest = deferred<ArrayBuffer>();
    const subtle = { digest: () => digest.promise } as unknown as SubtleCrypto;
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room, crypto: { subtle } });
    const outcome = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    expect(confirmations.getState().current?.can.deny).toBe(true);
    expect(confirmations.deny('no')).toBe(true);
    digest.resolve(new ArrayBuffer(32));
    expect(await outcome).toEqual({ status: 'denied', reason: 'no' });
    await settleAll();
    expect(confirmations.getState().current).toBeNull();
    expect(room.calls).toEqual([]);
  });

  it('hands out snapshots that never change, for useSyncExternalStore', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const states = record(confirmations);
    const copies: string[] = [];
    confirmations.subscribe((state) => copies.push(JSON.stringify(state)));
    const a = confirmations.request({ toolName: 'a', arguments: { list: [1, 2] }, descriptor: write });
    const b = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    await a;
    await shown(confirmations);
    confirmations.deny();
    await b;

    // Every published state is frozen all the way down, but for the room's output, which is
    // passed through untouched; and each still reads as it did when published.
    const published = states.slice(1);
    for (const state of published) {
      const { last, current, queue } = state;
      expect(Object.isFrozen(state)).toBe(true);
      expect(isDeepFrozen(current) && isDeepFrozen(queue)).toBe(true);
      if (last !== null) {
        const parts = Object.entries(last.outcome).filter(([key]) => key !== 'output');
        expect(Object.isFrozen(last) && Object.isFrozen(last.outcome) && parts.every(([, v]) => isDeepFrozen(v))).toBe(true);
      }
    }
    expect(published.map((s) => JSON.stringify(s))).toEqual(copies);
    // Reading twice without a change returns the same object.
    expect(confirmations.getState()).toBe(confirmations.getState());
  });

  it('starts from an empty initial state, the server snapshot', () => {
    const confirmations = createConfirmationController();
    expect(confirmations.getInitialState()).toEqual({ status: 'idle', current: null, queue: [], waiting: 0, last: null });
    expect(confirmations.getState()).toBe(confirmations.getInitialState());
  });

  it('keeps an unchanged view object when another request changes', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const a = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    const b = confirmations.request({ toolName: 'b', arguments: {}, descriptor: write });
    await shown(confirmations);
    await settleAll();
    const before = confirmations.getState();
    confirmations.approve();
    const after = confirmations.getState();
    expect(after).not.toBe(before);
    expect(after.queue[0]).toBe(before.queue[0]);
    await a;
    await shown(confirmations);
    confirmations.deny();
    await b;
  });

  it('unsubscribes a listener', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const listener = vi.fn();
    const unsubscribe = confirmations.subscribe(listener);
    unsubscribe();
    void confirmations.request({ toolName: 'a', arguments: {}, descriptor: write }).catch(() => undefined);
    await settleAll();
    expect(listener).not.toHaveBeenCalled();
    confirmations.withdrawAll();
  });

  it('keeps going when a listener or a callback throws, and reports the error', async () => {
    const onError = vi.fn();
    const confirmations = createConfirmationController({
      room: createScriptedRoom(),
      onError,
      onResult: () => {
        throw new Error('broken onResult');
      },
    });
    confirmations.subscribe(() => {
      throw new Error('broken listener');
    });
    const outcome = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    expect((await outcome).status).toBe('done');
    expect(onError).toHaveBeenCalledWith(expect.stringContaining('broken listener'), expect.objectContaining({ message: 'broken listener' }), 'listener-threw');
    expect(onError).toHaveBeenCalledWith(expect.stringContaining('broken onResult'), expect.objectContaining({ message: 'broken onResult' }), 'listener-threw');
  });

  it('refuses a request without a room or onApprove, or with both, with a TypeError', () => {
    const confirmations = createConfirmationController();
    expect(() => confirmations.request({ toolName: 'a', arguments: {} })).toThrow(TypeError);
    expect(() =>
      confirmations.request({ toolName: 'a', arguments: {}, room: createScriptedRoom(), onApprove: () => 1 } as never),
    ).toThrow(/either a room or onApprove/);
    expect(() => confirmations.request({ toolName: '', arguments: {}, onApprove: () => 1 })).toThrow(/toolName/);
  });
});
