import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, createToolgate, type ClientMessage } from 'toolgate/core';
import { createScriptedSession } from 'toolgate/testing';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const ofType = <T extends ClientMessage['type']>(sent: readonly ClientMessage[], type: T) =>
  sent.filter((m): m is Extract<ClientMessage, { type: T }> => m.type === type);

const start = (callId: string, name: string) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't1', name });
const request = (requestId: string, callId: string) => ({
  type: 'tool.approval-request',
  requestId,
  callId,
  name: 'delete_file',
  arguments: { path: '/tmp/a' },
  risk: 'high',
});

describe('createToolgate: one client wires each part once', () => {
  it('fills its store with the session’s events and stops at disconnect', () => {
    const client = createToolgate();
    const session = createScriptedSession();
    const disconnect = client.connect(session);
    session.emit(start('c1', 'search'));
    expect(client.calls.getState().order).toEqual(['c1']);
    disconnect();
    session.emit(start('c2', 'search'));
    expect(client.calls.getState().order).toEqual(['c1']);
  });

  it('brings an approval request through connect to its approvals, marks the card, and sends the answer once', async () => {
    const client = createToolgate();
    const session = createScriptedSession();
    // Connected, disconnected and connected again (as a StrictMode remount does): wired once, not twice.
    client.connect(session)();
    client.connect(session);
    session.emit(start('c1', 'delete_file'));
    session.emit(request('r1', 'c1'));
    await vi.waitFor(() => expect(client.approvals.getState().current?.callId).toBe('c1'));
    expect(client.approvals.getState().waiting).toBe(0);
    expect(client.calls.getState().calls.c1?.approval).toBe('awaiting');
    await vi.waitFor(() => expect(client.approvals.getState().status).toBe('reviewing'));
    expect(client.approvals.approve()).toBe(true);
    await session.waitFor((s) => ofType(s.sent, 'tool.approval').length > 0);
    session.emit(request('r1', 'c1')); // the same request again (a resume): answered already
    await settle();
    const answers = ofType(session.sent, 'tool.approval');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ requestId: 'r1', approved: true });
    expect(client.calls.getState().calls.c1?.approval).toBe('approved');
  });

  it('has an app tool with confirm ask its approvals, with the call’s card awaiting, and answers the call once', async () => {
    const client = createToolgate();
    const session = createScriptedSession();
    client.connect(session);
    client.host.register({ name: 'insert_text', confirm: true, run: (args: unknown) => args });
    session.emit(start('a1', 'insert_text'));
    const result = session.callTool({ callId: 'a1', turnId: 't1', name: 'insert_text', arguments: { text: 'hi' } });
    await vi.waitFor(() => expect(client.approvals.getState().current?.callId).toBe('a1'));
    expect(client.calls.getState().calls.a1?.approval).toBe('awaiting');
    client.approvals.deny('not now');
    await expect(result).resolves.toMatchObject({ ok: false, code: 'REJECTED' });
    expect(ofType(session.sent, 'tool.result')).toHaveLength(1);
    expect(client.calls.getState().calls.a1?.approval).toBe('denied');
  });

  it('has a host made elsewhere ask its approvals only while mounted, then hands the host back', async () => {
    const host = createAppToolHost();
    const client = createToolgate({ host });
    host.register({ name: 'insert_text', confirm: true, run: () => 'done' });
    const call = { callId: 'a1', turnId: 't1', epoch: host.epoch, name: 'insert_text', arguments: {} };
    // Not mounted: making a client changed nothing in the host (no handler: the call is refused).
    await expect(host.call(call)).resolves.toMatchObject({ ok: false });
    expect(client.approvals.getState().current).toBeNull();
    const unmount = client.mount();
    const asked = host.call({ ...call, callId: 'a2' });
    await vi.waitFor(() => expect(client.approvals.getState().status).toBe('reviewing'));
    expect(client.approvals.getState().current?.callId).toBe('a2');
    client.approvals.approve();
    await expect(asked).resolves.toEqual({ ok: true, output: 'done' });
    unmount();
    await expect(host.call({ ...call, callId: 'a3' })).resolves.toMatchObject({ ok: false });
    expect(client.approvals.getState().current).toBeNull();
  });

  it('ends it all at close: the session is disconnected, waiting approvals withdrawn, the host closed', async () => {
    const client = createToolgate();
    const session = createScriptedSession();
    client.connect(session);
    session.emit(start('c1', 'delete_file'));
    session.emit(request('r1', 'c1'));
    await vi.waitFor(() => expect(client.approvals.getState().current?.callId).toBe('c1'));
    client.close();
    await settle();
    expect(client.approvals.getState().current).toBeNull();
    expect(client.host.getState().closed).toBe(true);
    session.emit(start('c2', 'search'));
    expect(client.calls.getState().order).toEqual(['c1']);
    // A withdrawn request is not answered: the session goes on without the page.
    expect(ofType(session.sent, 'tool.approval')).toHaveLength(0);
  });
});
