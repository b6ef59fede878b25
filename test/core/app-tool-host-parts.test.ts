/**
 * The parts the app-tool host is assembled from, each held to its own rule: the answer ledger
 * (one answer per call), the deadline (a limit that stops while a person is waited for), the
 * epoch gate, and the state on the kit's store core (one listener policy).
 */
import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, type AppToolHost } from 'toolgate/core';
import { createManualClock } from 'toolgate/testing';
import { createAnswerLedger } from '../../src/core/app-tools/answer-ledger';
import { startDeadline } from '../../src/core/app-tools/deadline';
import { createEpochGate } from '../../src/core/app-tools/epoch-gate';

type AppToolHostState = ReturnType<AppToolHost['getState']>;

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the answer ledger', () => {
  it('gives a call exactly one answer: the second is refused and a repeat gets the first', async () => {
    const ledger = createAnswerLedger(10);
    const promise = ledger.open('c1');
    expect(ledger.answer('c1', { ok: true, output: 1 })).toBe(true);
    expect(ledger.answer('c1', { ok: true, output: 2 })).toBe(false);
    await expect(promise).resolves.toEqual({ ok: true, output: 1 });
    expect(ledger.repeat('c1')).toBe(promise);
    expect(ledger.resultOf('c1')).toEqual({ ok: true, output: 1 });
  });

  it('keeps the results of the latest answers only, and still never lets a forgotten call run again', async () => {
    const ledger = createAnswerLedger(2);
    for (const id of ['a', 'b', 'c']) void ledger.answerAtOnce(id, { ok: true, output: id });
    expect(ledger.resultOf('a')).toBeUndefined();
    expect(ledger.resultOf('c')).toEqual({ ok: true, output: 'c' });
    await expect(ledger.repeat('a')).resolves.toMatchObject({ ok: false, code: 'FAILED' });
    expect(ledger.repeat('new')).toBeUndefined();
  });

  it('never forgets a call still open, however many others are answered', async () => {
    const ledger = createAnswerLedger(1);
    const open = ledger.open('open');
    for (let i = 0; i < 5; i++) void ledger.answerAtOnce(`x${i}`, { ok: true, output: i });
    expect(ledger.repeat('open')).toBe(open);
    expect(ledger.answer('open', { ok: true, output: 'late' })).toBe(true);
  });
});

describe('the deadline', () => {
  it('expires once when its limit passes, and never after it was stopped', async () => {
    const clock = createManualClock();
    const expire = vi.fn();
    startDeadline(clock, 100, expire);
    await clock.advance(99);
    expect(expire).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(expire).toHaveBeenCalledOnce();

    const stopped = vi.fn();
    startDeadline(clock, 100, stopped).stop();
    await clock.advance(1_000);
    expect(stopped).not.toHaveBeenCalled();
  });

  it('stops counting while a person is waited for, nested waits once, and goes on with what was left', async () => {
    const clock = createManualClock();
    const expire = vi.fn();
    const deadline = startDeadline(clock, 100, expire);
    await clock.advance(60);
    deadline.pause();
    deadline.pause(); // a second wait inside the first
    await clock.advance(10_000);
    deadline.resume();
    await clock.advance(10_000); // still one wait open
    expect(expire).not.toHaveBeenCalled();
    deadline.resume();
    await clock.advance(39);
    expect(expire).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(expire).toHaveBeenCalledOnce();
  });

  it('never expires without a limit (Infinity)', async () => {
    const clock = createManualClock();
    const expire = vi.fn();
    startDeadline(clock, Infinity, expire);
    await clock.advance(1e12);
    expect(expire).not.toHaveBeenCalled();
  });
});

describe('the epoch gate', () => {
  it("raises the floor past the interrupted turn's epoch, and refuses older epochs and that turn", () => {
    const gate = createEpochGate(0);
    gate.admit('t4', 4);
    gate.interrupt('t4');
    expect(gate.floor).toBe(5);
    expect(gate.refusal('other', 4)).toMatch(/below the gate's floor 5/);
    expect(gate.refusal('t4', 99)).toBe('turn t4 was interrupted');
    expect(gate.refusal('t5', 5)).toBeUndefined();
  });

  it('judges only epochs it can compare exactly: anything else is left to the call check', () => {
    const gate = createEpochGate(10);
    expect(gate.refusal('t', 1.5)).toBeUndefined();
    expect(gate.refusal('t', -Infinity)).toBeUndefined();
    expect(gate.refusal('t', 9)).toBeDefined();
  });
});

describe('the host state on the store core', () => {
  it('hands each listener the new state and the one before', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const seen: Array<[AppToolHostState, AppToolHostState]> = [];
    host.subscribe((state, previous) => seen.push([state, previous]));
    host.register({ name: 'a', run: () => 1 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toBe(host.getState());
    expect(seen[0]?.[1].tools).toEqual({});
    await host.call({ callId: 'c1', turnId: 't', epoch: 0, name: 'a', arguments: {} });
    for (let i = 1; i < seen.length; i++) expect(seen[i]?.[1]).toBe(seen[i - 1]?.[0]);
  });

  it('reports a listener that throws once, in the one onError shape, and every other listener still hears of the change', () => {
    const onError = vi.fn();
    const host = createAppToolHost({ onError });
    const after = vi.fn();
    host.subscribe(() => {
      throw new Error('broken');
    });
    host.subscribe(after);
    host.register({ name: 'a', run: () => 1 });
    expect(onError).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith('a listener threw: Error: broken', new Error('broken'), 'listener-threw');
    expect(after).toHaveBeenCalledOnce();
  });

  it('reports an interrupt listener that throws the same way, and the interrupt still happens', () => {
    const onError = vi.fn();
    const host = createAppToolHost({ onError });
    const after = vi.fn();
    host.onInterrupt(() => {
      throw new Error('broken');
    });
    host.onInterrupt(after);
    host.interrupt('t1');
    expect(onError).toHaveBeenCalledWith('an interrupt listener threw: Error: broken', new Error('broken'), 'listener-threw');
    expect(after).toHaveBeenCalledWith({ turnId: 't1', turnIds: ['t1'], epoch: 0 });
  });

  it("keeps each answered call's result by call id, calls answered at once included, and forgets them on close", async () => {
    const host = createAppToolHost({ clock: createManualClock(), rememberResults: 2 });
    host.register({ name: 'a', run: (args) => args['n'] ?? null });
    await host.call({ callId: 'c1', turnId: 't', epoch: 0, name: 'a', arguments: { n: 1 } });
    await host.call({ callId: 'c2', turnId: 't', epoch: 0, name: 'a', arguments: { n: 2 } });
    expect(host.resultOf('c1')).toEqual({ ok: true, output: 1 });
    await host.call({ callId: 'bad', turnId: 't', epoch: 0, name: 'a', arguments: [] as never });
    expect(host.resultOf('bad')).toMatchObject({ ok: false, code: 'INVALID' });
    expect(host.resultOf('c1')).toBeUndefined(); // past the latest two
    host.close();
    expect(host.resultOf('c2')).toBeUndefined();
  });

  it('has the result of a call ready for a listener as soon as the listener hears the call settled', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    host.register({ name: 'a', run: () => 'done' });
    const seenResults: unknown[] = [];
    host.subscribe((state) => {
      if (!Object.hasOwn(state.calls, 'c1')) seenResults.push(host.resultOf('c1'));
    });
    await host.call({ callId: 'c1', turnId: 't', epoch: 0, name: 'a', arguments: {} });
    await settle();
    expect(seenResults[0]).toEqual({ ok: true, output: 'done' });
  });

  it('builds no state for a host nobody watches, and a later listener starts from the current state', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    host.register({ name: 'a', run: () => 1 });
    await host.call({ callId: 'c1', turnId: 't', epoch: 0, name: 'a', arguments: {} });
    const seen: AppToolHostState[] = [];
    host.subscribe((_state, previous) => seen.push(previous));
    const before = host.getState();
    host.register({ name: 'b', run: () => 2 });
    expect(seen[0]).toBe(before);
    expect(before.tools['a']?.lastResult).toMatchObject({ callId: 'c1' });
  });
});
