/**
 * `useCallApproval(callId)` reads the call's approval record (plain data) through the client's
 * record store: while the request waits it also carries the request and its actions; once
 * answered it still returns the record, and the actions do nothing. A card inside the provider
 * shows what the record says.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolCallCard, ToolgateProvider, createToolgate, selectApprovalRecord, useCallApproval, type CallApproval } from 'toolgate';
import { createScriptedSession } from 'toolgate/testing';

function Probe({ callId, seen }: { callId: string; seen: (CallApproval | null)[] }) {
  seen.push(useCallApproval(callId));
  return null;
}

function setup() {
  const client = createToolgate();
  const session = createScriptedSession();
  const seen: (CallApproval | null)[] = [];
  render(
    <StrictMode>
      <ToolgateProvider client={client} session={session}>
        <Probe callId="c1" seen={seen} />
        <ToolCallCard callId="c1" />
      </ToolgateProvider>
    </StrictMode>,
  );
  const ask = (extra: Record<string, unknown> = {}) =>
    act(() => {
      session.emit({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'send_mail' });
      session.emit({ type: 'tool.stream', phase: 'arguments-complete', callId: 'c1', arguments: { to: 'ada' } });
      session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', name: 'send_mail', arguments: { to: 'ada' }, risk: 'low', effect: 'write', ...extra });
    });
  const last = () => seen.at(-1) ?? null;
  return { client, session, ask, last };
}

describe('useCallApproval returns the call’s approval record', () => {
  it('is null before any approval is asked for the call', () => {
    const { last } = setup();
    expect(last()).toBeNull();
  });

  it('while the request waits: the request, its actions and the awaiting record', async () => {
    const { ask, last, client } = setup();
    ask();
    await waitFor(() => expect(last()?.request?.status).toBe('reviewing'));
    const approval = last() as CallApproval;
    expect(approval.record).toMatchObject({ callId: 'c1', status: 'awaiting', toolName: 'send_mail' });
    expect(approval.record).toBe(selectApprovalRecord(client.approvals.records.getState(), 'c1'));
    expect(approval.request?.callId).toBe('c1');
  });

  it('after approval: still the record (approved, by a person, what runs), no request, actions that do nothing', async () => {
    const { ask, last } = setup();
    ask();
    await waitFor(() => expect(last()?.request?.can.approve).toBe(true));
    let approved = false;
    act(() => {
      approved = (last() as CallApproval).approve();
    });
    expect(approved).toBe(true);
    await waitFor(() => expect(last()?.request).toBeNull());
    const after = last() as CallApproval;
    expect(after.record).toMatchObject({ status: 'approved', decision: 'approve', by: 'person', approvedArguments: { to: 'ada' } });
    expect(Object.isFrozen(after.record)).toBe(true);
    expect(after.approve()).toBe(false);
    expect(after.deny('late')).toBe(false);
    await expect(after.submitEdit({ to: 'bob' })).resolves.toMatchObject({ ok: false });
    expect(last()?.record?.status).toBe('approved');
  });

  it('after a denial: the denied record with its reason, and the card says so from it', async () => {
    const { ask, last, client } = setup();
    ask();
    await waitFor(() => expect(last()?.request?.can.deny).toBe(true));
    act(() => void (last() as CallApproval).deny('not to her'));
    await waitFor(() => expect(last()?.record?.status).toBe('denied'));
    expect(last()).toMatchObject({ request: null, record: { reason: 'not to her', by: 'person', decision: 'deny' } });
    expect(client.calls.getState().calls.c1?.approval).toBe('denied');
    expect((await screen.findByRole('article')).getAttribute('data-approval')).toBe('denied');
  });

  it('the card shows the server’s refusal the record holds', async () => {
    const { ask, last, client } = setup();
    ask();
    await waitFor(() => expect(last()?.request?.can.approve).toBe(true));
    act(() => void (last() as CallApproval).approve());
    act(() => void client.approvals.noteAnswer('c1', { status: 'refused', reason: 'FINGERPRINT_MISMATCH: changed' }));
    await waitFor(() => expect(screen.getByRole('article').getAttribute('data-approval')).toBe('refused'));
    expect(screen.getByText('FINGERPRINT_MISMATCH: changed')).toBeTruthy();
    expect(last()?.record).toMatchObject({ status: 'refused', by: 'person' });
  });

  it('a card inside the provider reads the record even where the call has no mirrored field yet (the request came before the call)', async () => {
    const { session, client, last } = setup();
    act(() => session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', name: 'send_mail', arguments: { to: 'ada' }, risk: 'low' }));
    await waitFor(() => expect(last()?.record?.status).toBe('awaiting'));
    act(() => session.emit({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'send_mail' }));
    // The call appeared after its record: the store's own field was never set, the card reads the record.
    expect(client.calls.getState().calls.c1?.approval).toBeUndefined();
    await waitFor(() => expect(screen.getByRole('article').getAttribute('data-approval')).toBe('awaiting'));
  });
});

describe('outside a provider, a card falls back to the call’s own fields', () => {
  it('shows the approval the store holds for the call', async () => {
    const client = createToolgate();
    client.calls.getState().dispatch({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'send_mail' });
    client.calls.getState().markApproval('c1', { approval: 'denied', reason: 'no' });
    render(
      <StrictMode>
        <ToolCallCard callId="c1" store={client.calls} />
      </StrictMode>,
    );
    expect((await screen.findByRole('article')).getAttribute('data-approval')).toBe('denied');
  });
});
