/**
 * Approvals of a nested call name their parent: the server's approval request for a call a
 * sub-agent made carries `parentCallId`; the request's view names that call (and its tool, read
 * from the session's store), and the dialog says so under its title.
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConfirmToolDialog, ToolgateProvider, createConfirmationController, createToolStreamStore } from 'toolgate';
import { connectApprovalGate } from 'toolgate/client';
import { createScriptedSession, toolEvents } from 'toolgate/testing';

const request = (extra: Record<string, unknown> = {}) => ({
  type: 'tool.approval-request',
  requestId: 'apr_1',
  callId: 'call_4',
  turnId: 'turn_1',
  name: 'issue_refund',
  arguments: { orderId: 'ord_1042', amount: 129.9 },
  risk: 'high',
  ...extra,
});

function mount() {
  const session = createScriptedSession();
  render(
    <ToolgateProvider session={session}>
      <ConfirmToolDialog />
    </ToolgateProvider>,
  );
  act(() => {
    session.emit(toolEvents.start('call_1', { name: 'research', turnId: 'turn_1' }));
    session.emit(toolEvents.start('call_4', { name: 'issue_refund', turnId: 'turn_1', parentCallId: 'call_1' }));
  });
  return session;
}

describe('approvals of a nested call name their parent', () => {
  it('the dialog of a sub-agent call’s request says which tool’s work it is part of', async () => {
    const session = mount();
    act(() => session.emit(request({ parentCallId: 'call_1' })));
    const dialog = await screen.findByRole('dialog');
    const line = within(dialog).getByText('Part of research (call call_1)');
    expect(line).toHaveAttribute('data-parent-call-id', 'call_1');
  });

  it('names the parent call by its id when the page does not know its tool', async () => {
    const session = mount();
    act(() => session.emit(request({ parentCallId: 'call_9' })));
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByText('Part of call call_9');
  });

  it('says nothing of a parent for a call that has none', async () => {
    const session = mount();
    act(() => session.emit(request()));
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByRole('heading', { name: /issue_refund/ });
    expect(dialog.querySelector('.toolgate-confirm-parent')).toBeNull();
  });

  it('the request’s view carries the parent as plain data, its tool name read from the store', () => {
    const session = createScriptedSession();
    const store = createToolStreamStore();
    const controller = createConfirmationController();
    store.getState().dispatch(toolEvents.start('call_1', { name: 'research' }));
    const stop = connectApprovalGate(session, controller, { calls: store });
    session.emit(request({ parentCallId: 'call_1' }));
    expect(controller.getState().current?.parent).toEqual({ callId: 'call_1', toolName: 'research' });
    expect(Object.isFrozen(controller.getState().current?.parent)).toBe(true);
    stop();
  });

  it('refuses a request whose parentCallId is not an id, or names the call itself, through onError, and denies it', () => {
    for (const parentCallId of ['', 7, 'call_4']) {
      const session = createScriptedSession();
      const controller = createConfirmationController();
      const errors: string[] = [];
      const stop = connectApprovalGate(session, controller, { onError: (reason, _event, code) => errors.push(`${code}: ${reason}`) });
      session.emit(request({ parentCallId }));
      expect(errors).toEqual([expect.stringMatching(/^malformed-approval-request: malformed tool.approval-request: parentCallId/)]);
      expect(controller.getState().current).toBeNull();
      expect(session.sent).toEqual([expect.objectContaining({ type: 'tool.approval', requestId: 'apr_1', approved: false })]);
      stop();
    }
  });
});
