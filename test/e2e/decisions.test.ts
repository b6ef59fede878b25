// @vitest-environment node
/**
 * Typed decisions and signed approvals against the real reference server, through the client and
 * the kit's gate (docs/protocol.md "Decisions", "Signed approvals"): the page returns each
 * request's token by itself; respond settles the call with the person's answer, marked as theirs;
 * cancel withdraws it (cancelled, not rejected); a forged token runs nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, createToolStreamStore, type ClientMessage } from 'toolgate/core';
import { connectApprovalGate } from 'toolgate/client';
import { callOf } from '../../src/core/stream/call-table';
import { useReferenceSession, WAIT_MS } from './harness';

const referenceSession = useReferenceSession();

/** A page on the real server: the store, the controller and the gate, with what leaves the page recorded (and optionally changed). */
async function page(change: (message: ClientMessage) => ClientMessage = (message) => message) {
  const { server, session: live } = await referenceSession();
  const store = createToolStreamStore();
  live.subscribe((event) => store.getState().dispatch(event));
  const controller = createConfirmationController();
  const sent: ClientMessage[] = [];
  const wire = {
    subscribe: live.subscribe,
    onFrame: live.onFrame,
    send: (message: ClientMessage) => {
      const out = change(message);
      sent.push(out);
      live.send(out);
    },
  };
  connectApprovalGate(wire, controller, { calls: store });
  live.startTurn('deploy');
  await vi.waitFor(() => expect(controller.getState().current?.status).toBe('reviewing'), { timeout: WAIT_MS });
  const callId = controller.getState().current!.callId!;
  return { server, store, controller, sent, callId, call: () => callOf(store.getState(), callId) };
}

describe('typed decisions against the reference server', () => {
  it('respond: the call settles with the person’s answer, marked answered by a person; the token went back by itself; nothing ran', async () => {
    const { server, controller, sent, call } = await page();
    expect(controller.respond({ deployed: false, note: 'done by hand' })).toBe(true);
    await vi.waitFor(() => expect(call()?.status).toBe('settled'), { timeout: WAIT_MS });
    expect(call()).toMatchObject({ ok: true, output: { deployed: false, note: 'done by hand' }, answeredBy: 'person', approval: 'responded' });
    expect(sent).toEqual([expect.objectContaining({ type: 'tool.approval', decision: 'respond', approvalToken: expect.stringMatching(/^tg1\./) })]);
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
  });

  it('cancel: the call is cancelled and marked cancelled (not denied, not REJECTED); nothing ran', async () => {
    const { server, controller, call } = await page();
    expect(controller.cancel()).toBe(true);
    await vi.waitFor(() => expect(call()?.status).toBe('cancelled'), { timeout: WAIT_MS });
    expect(call()?.approval).toBe('cancelled');
    expect(call()?.code).toBeUndefined();
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
  });

  it('a forged token runs nothing, and the card follows the server’s refusal (APPROVAL_TOKEN_INVALID)', async () => {
    const forge = (message: ClientMessage): ClientMessage =>
      message.type === 'tool.approval' && typeof message.approvalToken === 'string' ? { ...message, approvalToken: `${message.approvalToken.slice(0, -4)}AAAA` } : message;
    const { server, controller, call } = await page(forge);
    expect(controller.approve()).toBe(true);
    await vi.waitFor(() => expect(call()?.approval).toBe('refused'), { timeout: WAIT_MS });
    expect(call()?.approvalReason).toMatch(/^APPROVAL_TOKEN_INVALID: /);
    await vi.waitFor(() => expect(call()).toMatchObject({ status: 'settled', ok: false, code: 'REJECTED' }), { timeout: WAIT_MS });
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
  });
});
