// @vitest-environment node
/**
 * The card follows the server's last word: an approval the reference server refuses
 * (FINGERPRINT_MISMATCH here; APPROVAL_EXPIRED and EDIT_REFUSED are read alike) ran nothing, so
 * the call's mark becomes `refused` with the server's reason, and keeps no `approvedArguments`.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, createToolStreamStore, type ClientMessage } from 'toolgate/core';
import { connectApprovalGate } from 'toolgate/client';
import { callOf } from '../../src/core/stream/call-table';
import { useReferenceSession } from './harness';

const connectSession = useReferenceSession();

describe('the card follows the server’s last word', () => {
  it('marks an approval the server refused (FINGERPRINT_MISMATCH) refused, with nothing approved that never ran', async () => {
    const { server, session: live } = await connectSession();
    const store = createToolStreamStore();
    live.subscribe((event) => store.getState().dispatch(event));
    const controller = createConfirmationController();
    // A path between the page and the server that changes what the approval says it approves.
    const tampered = {
      subscribe: live.subscribe,
      onFrame: live.onFrame,
      send: (message: ClientMessage) => live.send(message.type === 'tool.approval' ? { ...message, fingerprint: '0'.repeat(64) } : message),
    };
    connectApprovalGate(tampered, controller, { calls: store });
    const turnId = live.startTurn('deploy');
    await vi.waitFor(() => expect(controller.getState().current?.status).toBe('reviewing'));
    const callId = controller.getState().current!.callId!;
    expect(controller.approve()).toBe(true);
    await vi.waitFor(() => expect(callOf(store.getState(), callId)?.status).toBe('settled'));
    await vi.waitFor(() => expect(callOf(store.getState(), callId)?.approval).toBe('refused'));
    const call = callOf(store.getState(), callId)!;
    expect(call.approvedArguments).toBeUndefined();
    expect(call.approvalReason).toMatch(/^FINGERPRINT_MISMATCH: the approval does not match the arguments/);
    expect(call).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
    expect(turnId).toBeTypeOf('string');
  });
});
