/**
 * Expiry: a request with `expiresAt` ends `expired` at that time (on an injected clock), stays on
 * screen for the person who was reading it, and a decision after it changes nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController } from 'toolgate/core';
import { createManualClock } from 'toolgate/testing';
import { settleAll, shown } from './confirmation-helpers';

const START = Date.UTC(2026, 11, 1, 12);

function setup() {
  const clock = createManualClock({ start: START });
  const confirmations = createConfirmationController({ clock });
  const onApprove = vi.fn(() => null);
  const ask = (expiresAt: number, toolName = 'deploy') =>
    confirmations.request({ toolName, arguments: { v: 1 }, descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true }, expiresAt, onApprove });
  return { clock, confirmations, onApprove, ask };
}

describe('expiry', () => {
  it('ends the shown request expired at its time, holds it for the person to read, and ignores a late approval', async () => {
    const { clock, confirmations, onApprove, ask } = setup();
    const onResult = vi.fn();
    confirmations.subscribe((state, previous) => {
      if (state.last !== previous.last) onResult(state.last?.outcome);
    });
    const outcome = ask(START + 30_000);
    const view = await shown(confirmations);
    expect(view.expiresAt).toBe(START + 30_000);
    await clock.advance(29_999);
    expect(confirmations.getState().current?.status).toBe('reviewing');
    await clock.advance(1);
    expect(confirmations.getState().current).toMatchObject({ status: 'expired', outcome: { status: 'expired' }, can: { approve: false, deny: false, dismiss: true } });
    expect(onResult).toHaveBeenCalledWith({ status: 'expired' });
    expect(confirmations.approve({ requestId: view.id })).toBe(false);
    expect(confirmations.deny(undefined, { requestId: view.id })).toBe(false);
    confirmations.dismiss();
    expect(await outcome).toEqual({ status: 'expired' });
    await settleAll();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('refuses a decision that comes after the expiry time even when the expiry timer has not fired yet', async () => {
    // A clock whose timers are late (a busy page, a throttled tab): they never fire here.
    let now = START;
    const clock = { now: () => now, setTimeout: () => 0, clearTimeout: () => {} };
    const confirmations = createConfirmationController({ clock });
    const onApprove = vi.fn(() => null);
    const ask = () => confirmations.request({ toolName: 'deploy', arguments: { v: 1 }, descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true }, expiresAt: START + 1000, onApprove });
    const first = ask();
    const view = await shown(confirmations);
    now = START + 1000;
    expect(confirmations.approve({ requestId: view.id })).toBe(false);
    expect(confirmations.getState().current).toMatchObject({ status: 'expired' });
    confirmations.dismiss();
    expect(await first).toEqual({ status: 'expired' });
    now = START;
    const second = ask();
    const next = await shown(confirmations);
    now = START + 5000;
    expect(confirmations.approveAll([{ requestId: next.id, fingerprint: next.fingerprint!.hex }])).toEqual([]);
    expect(confirmations.deny('late', { requestId: next.id })).toBe(false);
    confirmations.dismiss();
    expect(await second).toEqual({ status: 'expired' });
    await settleAll();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('lets a waiting request expire out of the line without holding anything', async () => {
    const { clock, confirmations, ask } = setup();
    void ask(START + 60_000, 'first');
    const waiting = ask(START + 10_000, 'second');
    await shown(confirmations);
    await clock.advance(10_000);
    expect(await waiting).toEqual({ status: 'expired' });
    expect(confirmations.getState()).toMatchObject({ waiting: 0, current: { toolName: 'first', status: 'reviewing' } });
  });

  it('ends at once a request that arrives already expired, and shows nothing', async () => {
    const { confirmations, onApprove, ask } = setup();
    expect(await ask(START - 1)).toEqual({ status: 'expired' });
    expect(confirmations.getState().current).toBeNull();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('never expires a request that was approved in time, and leaves no timer behind', async () => {
    const { clock, confirmations, onApprove, ask } = setup();
    const outcome = ask(START + 5_000);
    await shown(confirmations);
    confirmations.approve();
    expect((await outcome).status).toBe('done');
    expect(clock.pending).toBe(0);
    await clock.advance(10_000);
    expect(onApprove).toHaveBeenCalledTimes(1);
  });

  it('waits in steps for an expiry beyond what one timer can hold (2^31 - 1 ms)', async () => {
    const { clock, confirmations, ask } = setup();
    const far = START + 3 * 2_147_483_647;
    void ask(far);
    await shown(confirmations);
    await clock.advance(2 * 2_147_483_647);
    expect(confirmations.getState().current?.status).toBe('reviewing');
    await clock.advance(2_147_483_647);
    expect(confirmations.getState().current?.status).toBe('expired');
  });

  it('expires a request while it is being edited', async () => {
    const clock = createManualClock({ start: START });
    const confirmations = createConfirmationController({ clock });
    const outcome = confirmations.request({ toolName: 'x', arguments: {}, editable: true, expiresAt: START + 1_000, onApprove: () => null });
    await shown(confirmations);
    confirmations.edit();
    await clock.advance(1_000);
    expect(confirmations.getState().current?.status).toBe('expired');
    expect((await confirmations.submitEdit({ a: 1 })).ok).toBe(false);
    confirmations.dismiss();
    expect(await outcome).toEqual({ status: 'expired' });
  });
});
