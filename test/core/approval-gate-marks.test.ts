/**
 * The server's gate marks its calls in the store (docs/protocol.md, "On the card"): `awaiting` while the
 * request waits, then `approved` with the request's arguments (what runs: the gate may have
 * rewritten the model's), or `denied` with the reason.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, createToolStreamStore, type ToolCall } from 'toolgate/core';
import { connectApprovalGate } from 'toolgate/client';
import { callEvents, createScriptedSession } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { settleAll, shown } from './confirmation-helpers';

function setup() {
  const session = createScriptedSession();
  const confirmations = createConfirmationController();
  const onError = vi.fn();
  const store = createToolStreamStore({ onError });
  session.subscribe((event) => store.getState().dispatch(event));
  const stop = connectApprovalGate(session, confirmations, { calls: store });
  for (const event of callEvents('d1', { name: 'deploy_service', arguments: { service: 'billing', version: 'latest' }, outcome: 'open' })) session.emit(event);
  // The gate pinned the version: what will run differs from what the model wrote.
  session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'd1', name: 'deploy_service', arguments: { service: 'billing', version: '2.4.1' }, risk: 'high' });
  const call = () => callOf(store.getState(), 'd1') as ToolCall;
  return { session, confirmations, store, onError, stop, call };
}

describe("the server's gate and the call's approval", () => {
  it('marks the call awaiting while the request waits, then approved with the arguments that run', async () => {
    const { confirmations, call, onError, stop, session } = setup();
    expect(call().approval).toBe('awaiting');
    await shown(confirmations);
    confirmations.approve();
    await session.waitForMessage('tool.approval');
    await settleAll();
    expect(call()).toMatchObject({ approval: 'approved', approvedArguments: { service: 'billing', version: '2.4.1' }, arguments: { service: 'billing', version: 'latest' } });
    expect(onError).not.toHaveBeenCalled();
    stop();
  });

  it('marks the call denied, with the reason, when the person declines', async () => {
    const { confirmations, call, stop, session } = setup();
    await shown(confirmations);
    confirmations.deny('not on a Friday');
    await session.waitForMessage('tool.approval');
    await settleAll();
    expect(call()).toMatchObject({ approval: 'denied', approvalReason: 'not on a Friday', approvedArguments: undefined });
    stop();
  });

  it('marks nothing for a request whose call the store does not show (and reports nothing)', async () => {
    const { session, confirmations, store, onError, stop } = setup();
    session.emit({ type: 'tool.approval-request', requestId: 'r2', callId: 'elsewhere', name: 'x', arguments: {}, risk: 'low' });
    await shown(confirmations);
    expect(callOf(store.getState(), 'elsewhere')).toBeUndefined();
    expect(onError).not.toHaveBeenCalled();
    stop();
  });
});
