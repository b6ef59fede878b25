/**
 * Every approval is bound to the tool's name as well as its arguments' fingerprint, on every core
 * path: the dialog, "Approve all", a standing grant, the room, and an app tool waiting on the
 * approvals. When the call, at the moment it is approved, names another tool than the one the
 * person was shown, nothing is confirmed, invoked, run or answered, and `onError` is told
 * `approval-mismatch`.
 */
import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, createConfirmationController, createToolStreamStore, type ClientMessage, type ErrorReporter, type ToolDescriptor, type ToolRoom } from 'toolgate/core';
import { connectApprovalGate, createAppToolApprovalHandler } from 'toolgate/client';
import { callEvents, createScriptedSession } from 'toolgate/testing';
import { settleAll, shown } from './confirmation-helpers';

const medium: ToolDescriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true };

/** A room that records what it was asked. */
function recordingRoom() {
  const asked: string[] = [];
  const room: ToolRoom = {
    confirmTool: async (name) => {
      asked.push(`confirm ${name}`);
      return 'conf-1';
    },
    invokeTool: async (name) => {
      asked.push(`invoke ${name}`);
      return 'ok';
    },
  };
  return { room, asked };
}

/** The codes `onError` was told. */
function reporter() {
  const codes: string[] = [];
  const onError: ErrorReporter = (_reason, _detail, code) => void codes.push(String(code));
  return { codes, onError };
}

describe('every approval is bound to the tool name (approval-mismatch)', () => {
  it("the dialog: a server request whose card names another tool is not answered when approved, and is reported", async () => {
    const { codes, onError } = reporter();
    const session = createScriptedSession();
    const confirmations = createConfirmationController({ onError });
    const store = createToolStreamStore();
    session.subscribe((event) => store.getState().dispatch(event));
    const stop = connectApprovalGate(session, confirmations, { calls: store });
    // The card shows read_file; the gate asks about the same call as delete_file.
    for (const event of callEvents('c1', { name: 'read_file', arguments: { path: 'a.txt' }, outcome: 'open' })) session.emit(event);
    session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', turnId: 't1', name: 'delete_file', arguments: { path: 'a.txt' }, risk: 'medium' });
    const view = await shown(confirmations);
    expect(view.toolName).toBe('delete_file');
    expect(confirmations.approve()).toBe(false);
    await settleAll();
    expect(session.sent.filter((m: ClientMessage) => m.type === 'tool.approval')).toEqual([]);
    expect(confirmations.getState().current?.outcome).toMatchObject({ status: 'refused', code: 'approval-mismatch' });
    expect(confirmations.getState().current?.outcome).toMatchObject({ reason: expect.stringMatching(/shown as delete_file but now names read_file/) });
    expect(codes).toEqual(['approval-mismatch']);
    stop();
  });

  it('the dialog: a server request whose card names the same tool is answered with that tool named', async () => {
    const session = createScriptedSession();
    const confirmations = createConfirmationController();
    const store = createToolStreamStore();
    session.subscribe((event) => store.getState().dispatch(event));
    const stop = connectApprovalGate(session, confirmations, { calls: store });
    for (const event of callEvents('c1', { name: 'delete_file', arguments: { path: 'a.txt' }, outcome: 'open' })) session.emit(event);
    session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', turnId: 't1', name: 'delete_file', arguments: { path: 'a.txt' }, risk: 'medium' });
    await shown(confirmations);
    expect(confirmations.approve()).toBe(true);
    await settleAll();
    expect(session.sent.filter((m: ClientMessage) => m.type === 'tool.approval')).toEqual([expect.objectContaining({ approved: true, toolName: 'delete_file' })]);
    stop();
  });

  it('the room: a call that names another tool when approved is never confirmed nor invoked', async () => {
    const { codes, onError } = reporter();
    const { room, asked } = recordingRoom();
    const confirmations = createConfirmationController({ room, onError });
    let held = 'read_file';
    const outcome = confirmations.request({ toolName: 'read_file', arguments: { path: 'a.txt' }, descriptor: medium, currentCall: () => ({ toolName: held }) });
    await shown(confirmations);
    held = 'delete_file';
    confirmations.approve();
    expect(await (confirmations.dismiss(), outcome)).toMatchObject({ status: 'refused', code: 'approval-mismatch' });
    expect(asked).toEqual([]);
    expect(codes).toEqual(['approval-mismatch']);
  });

  it('the room: a call that still names the tool shown is confirmed and invoked under that name', async () => {
    const { room, asked } = recordingRoom();
    const confirmations = createConfirmationController({ room });
    const outcome = confirmations.request({ toolName: 'read_file', arguments: { path: 'a.txt' }, descriptor: medium, currentCall: () => ({ toolName: 'read_file' }) });
    await shown(confirmations);
    confirmations.approve();
    expect((await outcome).status).toBe('done');
    expect(asked).toEqual(['confirm read_file', 'invoke read_file']);
  });

  it("Approve all: a pick naming another tool than the request's is refused, and a request whose call was renamed runs nothing", async () => {
    const { codes, onError } = reporter();
    const confirmations = createConfirmationController({ onError });
    const ran: string[] = [];
    let held = 'send_invoice';
    const ask = (toolName: string, currentCall?: () => { toolName: string }) =>
      confirmations.request({ toolName, arguments: { to: 'ann' }, descriptor: medium, ...(currentCall ? { currentCall } : {}), onApprove: () => void ran.push(toolName) });
    const first = ask('send_invoice', () => ({ toolName: held }));
    const second = ask('archive_mail');
    const state = await shown(confirmations).then(() => confirmations.getState());
    const views = [state.current!, ...state.queue];
    await vi.waitFor(() => expect(confirmations.getState().queue.every((v) => v.fingerprint !== null)).toBe(true));
    const fingerprints = [confirmations.getState().current!, ...confirmations.getState().queue].map((v) => v.fingerprint!.hex);
    held = 'delete_mailbox';
    const result = confirmations.approveAll([
      { requestId: views[0]!.id, toolName: 'send_invoice', fingerprint: fingerprints[0]! },
      { requestId: views[1]!.id, toolName: 'send_invoice', fingerprint: fingerprints[1]! },
    ]);
    expect([...result]).toEqual([]);
    expect(result.refused).toEqual([
      { requestId: views[0]!.id, reason: expect.stringMatching(/approval-mismatch: .*shown as send_invoice but now names delete_mailbox/) },
      { requestId: views[1]!.id, reason: expect.stringMatching(/approval-mismatch: .*shown as send_invoice but now names archive_mail/) },
    ]);
    expect(codes).toEqual(['approval-mismatch', 'approval-mismatch']);
    expect(ran).toEqual([]);
    confirmations.dismiss();
    expect(await first).toMatchObject({ status: 'refused', code: 'approval-mismatch' });
    confirmations.deny();
    expect((await second).status).toBe('denied');
  });

  it('a standing grant: a request whose call names another tool is not answered by the grant of the tool shown', async () => {
    const { codes, onError } = reporter();
    const confirmations = createConfirmationController({ onError });
    confirmations.grants.allow('read_file');
    const ran: string[] = [];
    const outcome = confirmations.request({
      toolName: 'read_file',
      arguments: { path: 'a.txt' },
      descriptor: medium,
      currentCall: () => ({ toolName: 'delete_file' }),
      onApprove: () => void ran.push('read_file'),
    });
    expect(await outcome).toMatchObject({ status: 'refused', code: 'approval-mismatch' });
    expect(ran).toEqual([]);
    expect(codes).toEqual(['approval-mismatch']);
  });

  it("an app tool: a call the card shows as another tool is not run when approved (REJECTED), and is reported", async () => {
    const { codes, onError } = reporter();
    const confirmations = createConfirmationController({ onError });
    const store = createToolStreamStore();
    const host = createAppToolHost({ requestApproval: createAppToolApprovalHandler(confirmations, { calls: store, describe: () => medium }) });
    const run = vi.fn(() => 'deleted');
    host.register({ name: 'delete_file', confirm: true, run });
    for (const event of callEvents('c1', { name: 'read_file', arguments: { path: 'a.txt' }, outcome: 'open' })) store.getState().dispatch(event);
    const result = host.call({ callId: 'c1', turnId: 't1', epoch: host.epoch, name: 'delete_file', arguments: { path: 'a.txt' } });
    await shown(confirmations);
    confirmations.approve();
    expect(await result).toMatchObject({ ok: false, code: 'REJECTED', message: expect.stringMatching(/approval-mismatch/) });
    expect(run).not.toHaveBeenCalled();
    expect(codes).toEqual(['approval-mismatch']);
    host.close();
  });
});
