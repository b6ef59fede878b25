import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ToolRoomError, ToolRoomUnknownOutcomeError, createConfirmationController, type ConfirmationOutcome, type JsonValue, type ToolDescriptor, type ToolRoom } from 'toolgate/core';
import { canonicalJson } from 'toolgate/json';
import { createScriptedRoom } from 'toolgate/testing';
import { deferred, isDeepFrozen, record, settleAll, shown, until } from './confirmation-helpers';

const transfer: ToolDescriptor = {
  title: 'Transfer money',
  effect: 'write',
  risk: 'high',
  requiresConfirmation: true,
};
const lookup: ToolDescriptor = { effect: 'read', risk: 'low', requiresConfirmation: true };

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the room flow: approve, confirmTool, invokeTool', () => {
  it('confirms then invokes with the same frozen snapshot and ends done with the room’s own response', async () => {
    const room = createScriptedRoom({ tools: { transfer: { ...transfer, run: (args) => ({ receipt: 'r-1', args }) } } });
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { to: 'bob', amount: 5 }, descriptor: transfer });

    const view = await shown(confirmations);
    expect(view.title).toBe('Transfer money');
    expect(view.arguments).toEqual({ to: 'bob', amount: 5 });
    expect(isDeepFrozen(view.arguments)).toBe(true);
    expect(view.fingerprint?.hex).toBe(sha256('{"amount":5,"to":"bob"}'));

    expect(confirmations.approve()).toBe(true);
    const result = await outcome;

    const [confirm, invoke] = room.calls;
    expect(room.calls).toHaveLength(2);
    expect(confirm?.method).toBe('confirmTool');
    expect(invoke?.method).toBe('invokeTool');
    // Pass that same snapshot to confirmTool and then, with the returned id, to invokeTool
    // (docs/protocol.md, "Confirmation").
    expect(confirm?.received).toBe(view.arguments);
    expect(invoke?.received).toBe(view.arguments);
    expect(invoke?.confirmationId).toBe(confirm?.confirmationId);
    expect(result).toEqual({
      status: 'done',
      output: { receipt: 'r-1', args: { to: 'bob', amount: 5 } },
      fingerprint: view.fingerprint?.hex,
      confirmationId: confirm?.confirmationId,
    });
    expect(invoke?.hash).toBe(view.fingerprint?.hex);
    expect(confirmations.getState().current).toBeNull();
  });

  it('passes through the states idle, reviewing, confirming, invoking, done', async () => {
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room });
    const states = record(confirmations);
    const outcome = confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    await outcome;
    const seen = states.map((s) => s.current?.status ?? 'none');
    const order = seen.filter((s, i) => s !== seen[i - 1]);
    expect(order).toEqual(['none', 'idle', 'reviewing', 'confirming', 'invoking', 'none']);
    expect(confirmations.getState().last?.outcome.status).toBe('done');
  });

  it('sends nothing the caller changes in its arguments object after review began', async () => {
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room });
    const args = { to: 'bob', amount: 5, memo: { lines: ['rent'] } };
    const outcome = confirmations.request({ toolName: 'transfer', arguments: args, descriptor: transfer });
    const view = await shown(confirmations);

    args.to = 'mallory';
    args.amount = 5000;
    args.memo.lines.push('and more');
    (args as Record<string, unknown>).extra = true;

    confirmations.approve();
    const result = await outcome;
    expect(view.arguments).toEqual({ to: 'bob', amount: 5, memo: { lines: ['rent'] } });
    for (const call of room.calls) expect(call.arguments).toEqual({ to: 'bob', amount: 5, memo: { lines: ['rent'] } });
    expect(result.status === 'done' && result.fingerprint).toBe(view.fingerprint?.hex);
  });

  it('gives one confirmTool and one invokeTool for many concurrent approve() calls', async () => {
    // Every room call waits on a gate the test opens: no timers.
    const gate = deferred();
    const room = createScriptedRoom({ delayMs: 1, sleep: () => gate.promise });
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    const view = await shown(confirmations);

    // A double click, a held Enter key, a spoken "yes" and a card's button, all at once.
    const accepted: boolean[] = [];
    for (let i = 0; i < 20; i++) accepted.push(confirmations.approve());
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await Promise.resolve();
        return i % 2 === 0 ? confirmations.approve() : confirmations.approve({ requestId: view.id });
      }),
    );
    await shown(confirmations, 'confirming');
    accepted.push(...concurrent, confirmations.approve(), confirmations.approve({ requestId: view.id }));
    gate.resolve();
    await outcome;
    accepted.push(confirmations.approve(), confirmations.approve({ requestId: view.id }));

    expect(accepted.filter(Boolean)).toHaveLength(1);
    expect(room.calls.filter((c) => c.method === 'confirmTool')).toHaveLength(1);
    expect(room.calls.filter((c) => c.method === 'invokeTool')).toHaveLength(1);
    expect(room.effects).toHaveLength(1);
  });

  it('calls nothing in the room on deny, and ends denied with the reason', async () => {
    const room = createScriptedRoom();
    const confirmToolSpy = vi.spyOn(room, 'confirmTool');
    const invokeToolSpy = vi.spyOn(room, 'invokeTool');
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    expect(confirmations.deny('not today')).toBe(true);
    expect(await outcome).toEqual({ status: 'denied', reason: 'not today' });
    expect(confirmations.approve()).toBe(false);
    await settleAll();
    expect(confirmToolSpy).not.toHaveBeenCalled();
    expect(invokeToolSpy).not.toHaveBeenCalled();
    expect(room.calls).toEqual([]);
  });

  it('ends denied without a reason when none is given, and ignores an event passed as the reason', async () => {
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const first = confirmations.request({ toolName: 'a', arguments: {} });
    await shown(confirmations);
    confirmations.deny();
    expect(await first).toEqual({ status: 'denied' });
    const second = confirmations.request({ toolName: 'b', arguments: {} });
    await shown(confirmations);
    // As `onClick={deny}` would call it.
    (confirmations.deny as (reason: unknown) => boolean)({ type: 'click' });
    expect(await second).toEqual({ status: 'denied' });
  });

  it('never invokes when the room refuses the confirmation (no tool:confirm), and says why', async () => {
    const room = createScriptedRoom({ grants: ['tool:invoke:*'] });
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();

    const view = await shown(confirmations, 'refused');
    expect(view.outcome).toEqual({ status: 'refused', reason: expect.stringContaining('missing tool:confirm:transfer') });
    expect(view.can).toEqual({ approve: false, deny: false, check: false, retry: false, dismiss: true, edit: false, allowForSession: false, denyForSession: false, respond: false, cancel: false });
    expect(room.calls.filter((c) => c.method === 'invokeTool')).toEqual([]);
    expect(room.effects).toEqual([]);

    // The message stays shown until it is dismissed; the promise settles then.
    expect(confirmations.dismiss()).toBe(true);
    expect(await outcome).toEqual(view.outcome);
    expect(confirmations.getState().current).toBeNull();
  });

  it('ends refused on any rejection of confirmTool, whatever the error', async () => {
    const room: ToolRoom = {
      confirmTool: () => Promise.reject(new Error('socket closed')),
      invokeTool: vi.fn(() => Promise.resolve('never')),
    };
    const confirmations = createConfirmationController({ room });
    void confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    const view = await shown(confirmations, 'refused');
    expect(view.outcome?.status).toBe('refused');
    expect(room.invokeTool).not.toHaveBeenCalled();
  });

  it('ends refused when the room returns no confirmation id', async () => {
    const room: ToolRoom = {
      confirmTool: () => Promise.resolve(''),
      invokeTool: vi.fn(() => Promise.resolve('never')),
    };
    const confirmations = createConfirmationController({ room });
    void confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    expect((await shown(confirmations, 'refused')).outcome).toEqual({ status: 'refused', reason: expect.stringMatching(/no confirmation id/) });
    expect(room.invokeTool).not.toHaveBeenCalled();
  });

  it('ends failed on a definite invoke failure, and offers no retry for a write', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'fail-invoke', reason: 'insufficient funds' }] });
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    const view = await shown(confirmations, 'failed');
    expect(view.outcome).toEqual({ status: 'failed', reason: 'insufficient funds' });
    expect(view.can.retry).toBe(false);
    expect(confirmations.retry()).toBe(false);
    confirmations.dismiss();
    expect((await outcome).status).toBe('failed');
    expect(room.effects).toEqual([]);
  });

  it('ends uncertain when the response of a write is lost, and never retries by itself', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const confirmations = createConfirmationController({ room });
    void confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();

    const view = await shown(confirmations, 'uncertain');
    expect(view.outcome).toEqual({ status: 'uncertain', reason: expect.stringMatching(/may or may not have taken effect/) });
    await settleAll(20);
    // The effect happened once; nobody asked again.
    expect(room.effects).toHaveLength(1);
    expect(room.calls.filter((c) => c.method === 'invokeTool')).toHaveLength(1);
    expect(room.calls.filter((c) => c.method === 'confirmTool')).toHaveLength(1);
    expect(confirmations.getState().current?.status).toBe('uncertain');
  });

  it('counts a timeout or an unclassified error from invokeTool as an unknown outcome', async () => {
    for (const error of [new DOMException('timed out', 'TimeoutError'), new Error('socket hang up'), 'weird']) {
      const room: ToolRoom = { confirmTool: () => Promise.resolve('c-1'), invokeTool: () => Promise.reject(error) };
      const confirmations = createConfirmationController({ room });
      void confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
      await shown(confirmations);
      confirmations.approve();
      expect((await shown(confirmations, 'uncertain')).outcome?.status).toBe('uncertain');
    }
  });

  it('retries after uncertain only deliberately, and with a new confirmation', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-request' }] });
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    const uncertain = await shown(confirmations, 'uncertain');
    expect(uncertain.can.retry).toBe(true);
    const firstId = uncertain.confirmationId;

    expect(confirmations.retry()).toBe(true);
    expect(confirmations.retry()).toBe(false); // idempotent as approve
    const result = await outcome;

    const confirms = room.calls.filter((c) => c.method === 'confirmTool');
    const invokes = room.calls.filter((c) => c.method === 'invokeTool');
    expect(confirms).toHaveLength(2);
    expect(invokes).toHaveLength(2);
    expect(invokes[1]?.confirmationId).toBe(confirms[1]?.confirmationId);
    expect(invokes[1]?.confirmationId).not.toBe(firstId);
    expect(result).toMatchObject({ status: 'done', confirmationId: confirms[1]?.confirmationId });
    expect(room.effects).toHaveLength(1);
  });

  it('offers the application’s check first, and a check that finds the effect ends done without a second invoke', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const checkOutcome = vi.fn(() => ({ status: 'done' as const, output: { receipt: 'found' } }));
    const confirmations = createConfirmationController({ room, checkOutcome });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    const uncertain = await shown(confirmations, 'uncertain');
    expect(uncertain.can).toMatchObject({ check: true, retry: false, dismiss: true });
    expect(confirmations.retry()).toBe(false); // not before the check

    expect(confirmations.check()).toBe(true);
    const result = await outcome;
    expect(checkOutcome).toHaveBeenCalledWith(
      expect.objectContaining({
        toolName: 'transfer',
        arguments: { amount: 1 },
        fingerprint: uncertain.fingerprint?.hex,
        confirmationId: uncertain.confirmationId,
      }),
    );
    expect(result).toEqual({
      status: 'done',
      output: { receipt: 'found' },
      fingerprint: uncertain.fingerprint?.hex,
      confirmationId: uncertain.confirmationId,
    });
    expect(room.calls.filter((c) => c.method === 'invokeTool')).toHaveLength(1);
  });

  it('allows a deliberate retry with a new confirmation once the check finds that nothing happened', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-request' }] });
    const confirmations = createConfirmationController({ room, checkOutcome: () => ({ status: 'not-done' }) });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    await shown(confirmations, 'uncertain');
    confirmations.check();
    const failed = await shown(confirmations, 'failed');
    expect(failed.can.retry).toBe(true);
    expect(failed.checked).toBe(true);
    confirmations.retry();
    expect((await outcome).status).toBe('done');
    expect(room.calls.filter((c) => c.method === 'confirmTool')).toHaveLength(2);
    expect(room.effects).toHaveLength(1);
  });

  it('keeps a call uncertain when the check cannot tell, and allows the retry after it', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const confirmations = createConfirmationController({
      room,
      checkOutcome: () => Promise.reject(new Error('ledger offline')),
    });
    void confirmations.request({ toolName: 'transfer', arguments: { amount: 1 }, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    await shown(confirmations, 'uncertain');
    confirmations.check();
    await shown(confirmations, 'checking');
    const after = await shown(confirmations, 'uncertain');
    expect(after.outcome).toEqual({ status: 'uncertain', reason: expect.stringContaining('ledger offline') });
    expect(after.can).toMatchObject({ check: true, retry: true });
  });

  it('ends failed, not uncertain, when a read loses its response, and offers a plain retry', async () => {
    const room = createScriptedRoom({ tools: { lookup: { ...lookup, run: () => 42 } }, faults: [{ kind: 'lose-response' }] });
    const confirmations = createConfirmationController({ room, checkOutcome: vi.fn() });
    const outcome = confirmations.request({ toolName: 'lookup', arguments: { q: 'x' }, descriptor: lookup });
    await shown(confirmations);
    confirmations.approve();
    const failed = await shown(confirmations, 'failed');
    expect(failed.can).toMatchObject({ retry: true, check: false });
    confirmations.retry();
    expect(await outcome).toMatchObject({ status: 'done', output: 42 });
  });

  it('invokes a descriptor that needs no confirmation directly, without an id and without review', async () => {
    const room = createScriptedRoom({ tools: { lookup: { effect: 'read', risk: 'low', requiresConfirmation: false, run: () => 'ok' } } });
    const invokeTool = vi.spyOn(room, 'invokeTool');
    const confirmations = createConfirmationController({ room });
    const states = record(confirmations);
    const result = await confirmations.request({
      toolName: 'lookup',
      arguments: { q: 'x' },
      descriptor: { effect: 'read', risk: 'low', requiresConfirmation: false },
    });
    expect(result).toEqual({ status: 'done', output: 'ok', fingerprint: sha256('{"q":"x"}'), confirmationId: null });
    expect(invokeTool).toHaveBeenCalledTimes(1);
    expect(invokeTool.mock.calls[0]).toHaveLength(2); // no confirmation id argument at all
    expect(room.calls.map((c) => c.method)).toEqual(['invokeTool']);
    expect(states.every((s) => s.current === null)).toBe(true);
    expect(confirmations.approve()).toBe(false);
  });

  it('counts a missing descriptor as a write that needs confirmation', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const confirmations = createConfirmationController({ room });
    void confirmations.request({ toolName: 'mystery', arguments: { x: 1 } });
    const view = await shown(confirmations);
    expect(view.descriptor).toMatchObject({ effect: 'write', requiresConfirmation: true });
    expect(room.calls).toEqual([]); // reviewed first
    confirmations.approve();
    await shown(confirmations, 'uncertain'); // a lost write, not a failed read
    expect(room.calls.map((c) => c.method)).toEqual(['confirmTool', 'invokeTool']);
  });

  it('lets nothing cancel an invoke in flight: not a deny, a withdrawal or a second request', async () => {
    const gate = deferred();
    const room = createScriptedRoom({ faults: [{ kind: 'delay', ms: 1, method: 'invokeTool' }], sleep: () => gate.promise });
    const confirmations = createConfirmationController({ room });
    const abort = new AbortController();
    const outcome = confirmations.request({
      toolName: 'transfer',
      arguments: { amount: 1 },
      descriptor: transfer,
      signal: abort.signal,
    });
    await shown(confirmations);
    confirmations.approve();
    await shown(confirmations, 'invoking');
    expect(confirmations.deny('changed my mind')).toBe(false);
    abort.abort();
    expect(confirmations.withdrawAll()).toBe(0);
    expect(confirmations.dismiss()).toBe(false);
    gate.resolve();
    expect((await outcome).status).toBe('done');
    expect(room.effects).toHaveLength(1);
  });

  it.each([
    ['a function', { run: () => 1 }],
    ['undefined', { note: undefined }],
    ['a cycle', (() => {
      const cycle: Record<string, unknown> = { a: 1 };
      cycle.self = cycle;
      return cycle;
    })()],
    ['NaN', { amount: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['a lone surrogate', { name: '\ud800' }],
    ['a class instance', { when: new Date(0) }],
  ])('refuses arguments holding %s before review, and calls nothing', async (_, args) => {
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room });
    const states = record(confirmations);
    const onResult = vi.fn();
    const result = await confirmations.request({ toolName: 'transfer', arguments: args, descriptor: transfer, onResult });
    expect(result).toEqual({ status: 'refused', reason: expect.stringMatching(/^The arguments (are not JSON|cannot be fingerprinted)/) });
    expect(onResult).toHaveBeenCalledWith(result, expect.objectContaining({ status: 'refused' }));
    expect(states.every((s) => s.current === null)).toBe(true);
    expect(room.calls).toEqual([]);
  });

  it('keeps __proto__ keys as own keys and the fingerprint matches what the room hashed', async () => {
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room });
    const args = JSON.parse('{"user":"eve","__proto__":{"isAdmin":true}}') as JsonValue;
    const outcome = confirmations.request({ toolName: 'grant', arguments: args });
    const view = await shown(confirmations);
    expect(Object.keys(view.arguments as object)).toEqual(['user', '__proto__']);
    expect(Object.getPrototypeOf(view.arguments)).toBe(Object.prototype);
    expect((view.arguments as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    confirmations.approve();
    const result = (await outcome) as Extract<ConfirmationOutcome, { status: 'done' }>;
    const expected = sha256('{"__proto__":{"isAdmin":true},"user":"eve"}');
    expect(canonicalJson(view.arguments)).toBe('{"__proto__":{"isAdmin":true},"user":"eve"}');
    expect(view.fingerprint?.hex).toBe(expected);
    expect(result.fingerprint).toBe(expected);
    expect(room.calls.map((c) => c.hash)).toEqual([expected, expected]);
    expect(Object.keys(room.calls[1]?.arguments as object)).toContain('__proto__');
  });

  it('refuses with a clear message before review when Web Crypto is missing', async () => {
    const room = createScriptedRoom();
    const confirmations = createConfirmationController({ room, crypto: {} });
    const result = await confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
    expect(result).toEqual({ status: 'refused', reason: expect.stringMatching(/Web Crypto.*secure context/) });
    expect(room.calls).toEqual([]);
  });

  it('uses the room given on the request over the controller’s', async () => {
    const fallback = createScriptedRoom();
    const own = createScriptedRoom();
    const confirmations = createConfirmationController({ room: fallback });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: {}, room: own });
    await shown(confirmations);
    confirmations.approve();
    await outcome;
    expect(own.calls).toHaveLength(2);
    expect(fallback.calls).toHaveLength(0);
  });

  it('reports each outcome to onResult, an uncertain one and then the done after the retry', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-request' }] });
    const onResult = vi.fn();
    const confirmations = createConfirmationController({ room, onResult });
    const outcome = confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
    await shown(confirmations);
    confirmations.approve();
    await shown(confirmations, 'uncertain');
    confirmations.retry();
    await outcome;
    expect(onResult.mock.calls.map(([o]) => (o as ConfirmationOutcome).status)).toEqual(['uncertain', 'done']);
  });

  it('classifies a ToolRoomError as definite and a ToolRoomUnknownOutcomeError as unknown', async () => {
    const outcomes: string[] = [];
    for (const error of [new ToolRoomError('no such account'), new ToolRoomUnknownOutcomeError('lost')]) {
      const room: ToolRoom = { confirmTool: () => Promise.resolve('c'), invokeTool: () => Promise.reject(error) };
      const confirmations = createConfirmationController({ room });
      void confirmations.request({ toolName: 'transfer', arguments: {}, descriptor: transfer });
      await shown(confirmations);
      confirmations.approve();
      const state = await until(confirmations, (s) => s.current?.outcome != null);
      outcomes.push(state.current?.outcome?.status ?? '');
    }
    expect(outcomes).toEqual(['failed', 'uncertain']);
  });
});
