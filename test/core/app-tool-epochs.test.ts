/**
 * Epochs are safe integers: the epoch gate compares them exactly, so an interrupt at any epoch,
 * the largest included, refuses every later call of that epoch and below.
 */
import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, type AppToolCallRequest } from 'toolgate/core';
import { createManualClock } from 'toolgate/testing';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

let n = 0;
const call = (turnId: string, epoch: unknown, extra: Partial<AppToolCallRequest> = {}): AppToolCallRequest =>
  ({ callId: `e${++n}`, turnId, epoch, name: 'tool', arguments: {}, ...extra }) as AppToolCallRequest;

function makeHost(options: { epoch?: number } = {}) {
  const host = createAppToolHost({ clock: createManualClock(), ...options });
  const run = vi.fn(() => new Promise<never>(() => {}));
  host.register({ name: 'tool', run });
  return { host, run };
}

const MAX = Number.MAX_SAFE_INTEGER;

describe('epochs are safe integers', () => {
  it.each([
    ['a fraction', 1.5, '1.5'],
    ['2^53, past the safe integers', 2 ** 53, '9007199254740992'],
    ['2^60', 2 ** 60, '1152921504606847000'],
    ['below the safe integers', -(2 ** 53), '-9007199254740992'],
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Infinity, 'Infinity'],
    ['a string', '3', 'the string "3"'],
    ['null', null, 'null'],
    ['missing', undefined, 'none'],
  ])('answers INVALID with the reason to a call whose epoch is %s, and never runs it', async (_what, epoch, got) => {
    const { host, run } = makeHost();
    await expect(host.call(call('t1', epoch))).resolves.toEqual({
      ok: false,
      code: 'INVALID',
      message: `the call's epoch must be a safe integer, got ${got}`,
    });
    await settle();
    expect(run).not.toHaveBeenCalled();
  });

  it('answers INTERRUPTED to a call of an interrupted turn even when its epoch is not a safe integer: the turn is known to be dead', async () => {
    const { host } = makeHost();
    host.interrupt('gone');
    await expect(host.call(call('gone', 2 ** 60))).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: 'turn gone was interrupted' });
  });

  it('never runs a call past the safe integers, so no interrupt can be overtaken by an epoch that rounds to the same number', async () => {
    const { host, run } = makeHost();
    // 2^53 and 2^53 + 1 are the same number: a floor of "2^53 + 1" would let 2^53 through.
    await expect(host.call(call('A', 2 ** 53))).resolves.toMatchObject({ code: 'INVALID' });
    host.interrupt('A');
    await expect(host.call(call('B', 2 ** 53 + 1))).resolves.toMatchObject({ code: 'INVALID' });
    await settle();
    expect(run).not.toHaveBeenCalled();
  });

  it("still refuses the later calls of a turn interrupted at the largest safe epoch, whatever turn they name, and the floor stays exact", async () => {
    const { host, run } = makeHost();
    const first = host.call(call('A', MAX));
    await settle();
    expect(run).toHaveBeenCalledOnce();
    host.interrupt('A');
    await expect(first).resolves.toMatchObject({ code: 'INTERRUPTED' });
    expect(host.epoch).toBe(MAX + 1); // 2^53: exact, and above every epoch a call can carry

    // Let the turn fall out of the remembered interrupted turns: the floor alone must refuse it.
    for (let i = 0; i < 200; i++) host.interrupt(`other-${i}`);
    expect(host.epoch).toBe(MAX + 1);
    await expect(host.call(call('A', MAX))).resolves.toEqual({
      ok: false,
      code: 'INTERRUPTED',
      message: `the call's epoch ${MAX} is below the gate's floor ${MAX + 1}: its turn was interrupted`,
    });
    await expect(host.call(call('B', MAX))).resolves.toMatchObject({ code: 'INTERRUPTED' });
    host.interrupt();
    expect(host.epoch).toBe(MAX + 1);
    await settle();
    expect(run).toHaveBeenCalledOnce();
  });

  it('raises the floor past the largest safe epoch when interrupted without a turn', async () => {
    const { host, run } = makeHost();
    void host.call(call('A', MAX));
    await settle();
    host.interrupt();
    expect(host.epoch).toBe(MAX + 1);
    await expect(host.call(call('C', MAX))).resolves.toMatchObject({ code: 'INTERRUPTED' });
    expect(run).toHaveBeenCalledOnce();
  });

  it('refuses a starting floor that is not a safe integer, and takes the largest one', () => {
    for (const epoch of [1.5, 2 ** 53, Number.NaN, Infinity, '1' as unknown as number]) {
      expect(() => createAppToolHost({ epoch })).toThrow(/^epoch must be a safe integer \(the starting floor\), not /);
    }
    expect(createAppToolHost({ epoch: MAX }).epoch).toBe(MAX);
  });
});
