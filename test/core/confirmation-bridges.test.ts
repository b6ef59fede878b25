import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ToolRoomError, createAppToolHost, createConfirmationController, type ClientMessage, type JsonValue } from 'toolgate/core';
import { connectApprovalGate, createAppToolApprovalHandler } from 'toolgate/client';
import { answerToolApprovalRequest, isToolApprovalRequest } from '../../src/core/approval/confirmation-bridges';
import type { ToolApprovalRequestMessage } from '../../src/core/wire';
import { createScriptedSession } from 'toolgate/testing';
import { isDeepFrozen, settleAll, shown, until } from './confirmation-helpers';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const gateRequest = (overrides: Partial<ToolApprovalRequestMessage> = {}): ToolApprovalRequestMessage => ({
  type: 'tool.approval-request',
  requestId: 'r1',
  callId: 'c1',
  name: 'delete_file',
  arguments: { path: '/tmp/x', force: true },
  risk: 'high',
  effect: 'write',
  ...overrides,
});

describe('the path without a room (onApprove / onDeny)', () => {
  it('calls onApprove once with the frozen snapshot, and its return value is the output', async () => {
    const onApprove = vi.fn((args: JsonValue) => ({ ran: args }));
    const confirmations = createConfirmationController();
    const args = { text: 'hello', tags: ['a'] };
    const outcome = confirmations.request({ toolName: 'edit', arguments: args, onApprove });
    const view = await shown(confirmations);
    expect(view.path).toBe('callback');
    args.tags.push('changed later');
    confirmations.approve();
    confirmations.approve();
    const result = await outcome;
    expect(onApprove).toHaveBeenCalledTimes(1);
    const [received, context] = onApprove.mock.calls[0] as unknown as [JsonValue, { fingerprint: { hex: string }; attempt: number }];
    expect(received).toBe(view.arguments);
    expect(isDeepFrozen(received)).toBe(true);
    expect(received).toEqual({ text: 'hello', tags: ['a'] });
    expect(context).toMatchObject({ requestId: view.id, toolName: 'edit', attempt: 1, fingerprint: view.fingerprint });
    expect(result).toEqual({
      status: 'done',
      output: { ran: { text: 'hello', tags: ['a'] } },
      fingerprint: sha256('{"tags":["a"],"text":"hello"}'),
      confirmationId: null,
    });
  });

  it('calls onDeny with the reason and never onApprove', async () => {
    const onApprove = vi.fn();
    const onDeny = vi.fn();
    const confirmations = createConfirmationController();
    const outcome = confirmations.request({ toolName: 'edit', arguments: {}, onApprove, onDeny });
    await shown(confirmations);
    confirmations.deny('wrong block');
    expect(await outcome).toEqual({ status: 'denied', reason: 'wrong block' });
    expect(onDeny).toHaveBeenCalledWith('wrong block', expect.objectContaining({ status: 'denied' }));
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('ends failed when onApprove fails definitely, and uncertain when a write’s onApprove gives no answer', async () => {
    const confirmations = createConfirmationController();
    const definite = confirmations.request({
      toolName: 'edit',
      arguments: {},
      onApprove: () => {
        throw new ToolRoomError('block is locked');
      },
    });
    await shown(confirmations);
    confirmations.approve();
    expect((await shown(confirmations, 'failed')).outcome).toEqual({ status: 'failed', reason: 'block is locked' });
    confirmations.dismiss();
    await definite;

    void confirmations.request({ toolName: 'edit', arguments: {}, onApprove: () => Promise.reject(new Error('connection reset')) });
    await shown(confirmations);
    confirmations.approve();
    expect((await shown(confirmations, 'uncertain')).outcome?.status).toBe('uncertain');
  });

  it('calls onApprove directly, without review, for a descriptor that needs no confirmation', async () => {
    const onApprove = vi.fn(() => 'ran');
    const confirmations = createConfirmationController();
    const result = await confirmations.request({
      toolName: 'read_doc',
      arguments: {},
      descriptor: { effect: 'read', risk: 'low', requiresConfirmation: false },
      onApprove,
    });
    expect(result).toMatchObject({ status: 'done', output: 'ran', confirmationId: null });
    expect(confirmations.getState().last?.outcome).toBe(result);
  });
});

describe('the server’s before-tool-call gate (tool.approval-request -> tool.approval)', () => {
  it('answers approved with the fingerprint of the arguments shown', async () => {
    const sent: ClientMessage[] = [];
    const confirmations = createConfirmationController();
    const outcome = answerToolApprovalRequest(confirmations, gateRequest(), (m) => sent.push(m));
    const view = await shown(confirmations);
    expect(view).toMatchObject({ toolName: 'delete_file', callId: 'c1', descriptor: { effect: 'write', risk: 'high', requiresConfirmation: true } });
    confirmations.approve();
    confirmations.approve();
    await outcome;
    expect(sent).toEqual([
      // The answer names the tool shown and the fingerprint of its definition, so the server can check both.
      { type: 'tool.approval', requestId: 'r1', approved: true, decision: 'approve', toolName: 'delete_file', definitionFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), fingerprint: sha256('{"force":true,"path":"/tmp/x"}') },
    ]);
  });

  it('answers a deny with approved false and the reason', async () => {
    const sent: ClientMessage[] = [];
    const confirmations = createConfirmationController();
    const outcome = answerToolApprovalRequest(confirmations, gateRequest(), (m) => sent.push(m));
    const view = await shown(confirmations);
    confirmations.deny('keep that file');
    await outcome;
    expect(sent).toEqual([
      { type: 'tool.approval', requestId: 'r1', approved: false, decision: 'deny', reason: 'keep that file', toolName: 'delete_file', definitionFingerprint: view.definition?.hex, fingerprint: view.fingerprint?.hex },
    ]);
  });

  it('answers arguments it cannot show with approved false', async () => {
    const sent: ClientMessage[] = [];
    const confirmations = createConfirmationController();
    const result = await answerToolApprovalRequest(confirmations, gateRequest({ arguments: { path: '\udc00' } }), (m) => sent.push(m));
    expect(result.status).toBe('refused');
    expect(sent).toEqual([
      { type: 'tool.approval', requestId: 'r1', approved: false, decision: 'deny', reason: expect.stringMatching(/lone surrogate/), toolName: 'delete_file', fingerprint: '' },
    ]);
  });

  it('counts a gate request without effect as a write', async () => {
    const confirmations = createConfirmationController();
    const outcome = answerToolApprovalRequest(confirmations, gateRequest({ effect: undefined, risk: 'low' }), () => {});
    expect((await shown(confirmations)).descriptor).toMatchObject({ effect: 'write', risk: 'low' });
    confirmations.deny();
    await outcome;
  });

  it('recognises well-formed approval requests only', () => {
    expect(isToolApprovalRequest(gateRequest())).toBe(true);
    expect(isToolApprovalRequest({ ...gateRequest(), risk: 'extreme' })).toBe(false);
    expect(isToolApprovalRequest({ ...gateRequest(), requestId: 7 })).toBe(false);
    const { arguments: _, ...withoutArguments } = gateRequest();
    expect(isToolApprovalRequest(withoutArguments)).toBe(false);
    expect(isToolApprovalRequest(null)).toBe(false);
  });

  it('listens to a session, answers each request once even when repeated, and withdraws on closed', async () => {
    const session = createScriptedSession();
    const confirmations = createConfirmationController();
    const onError = vi.fn();
    const stop = connectApprovalGate(session, confirmations, { onError });

    session.emit(gateRequest({ requestId: 'r1' }));
    session.emit(gateRequest({ requestId: 'r1' })); // a repeat after a resume
    session.emit(gateRequest({ requestId: 'r2', name: 'rename_file' }));
    await shown(confirmations);
    expect(confirmations.getState().waiting).toBe(1);
    confirmations.approve();
    await session.waitForMessage('tool.approval', (m) => m.requestId === 'r1');
    await until(confirmations, (s) => s.current?.toolName === 'rename_file' && s.current.status === 'reviewing');

    session.emit({ type: 'closed' });
    await until(confirmations, (s) => s.current === null);
    await settleAll();
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([
      expect.objectContaining({ requestId: 'r1', approved: true }),
    ]);

    session.emit({ type: 'tool.approval-request', requestId: 'r3', name: 'x' }); // malformed
    expect(onError).toHaveBeenCalledWith(expect.stringMatching(/malformed tool.approval-request/), expect.anything(), 'malformed-approval-request');
    expect(session.sent.at(-1)).toEqual({
      type: 'tool.approval',
      requestId: 'r3',
      approved: false,
      reason: expect.stringMatching(/malformed/),
      fingerprint: '',
    });
    stop();
    expect(session.listenerCount().events).toBe(0);
  });
});

describe('app tools waiting on approval (the host’s requestApproval)', () => {
  it('resolves approved on approve and not approved, with the reason, on deny', async () => {
    const confirmations = createConfirmationController();
    const requestApproval = createAppToolApprovalHandler(confirmations);
    const yes = requestApproval({ callId: 'c1', turnId: 't1', toolName: 'edit', arguments: { a: 1 } });
    const view = await shown(confirmations);
    expect(view).toMatchObject({ callId: 'c1', turnId: 't1', descriptor: { effect: 'write', requiresConfirmation: true } });
    confirmations.approve();
    expect(await yes).toEqual({ approved: true });

    const no = requestApproval({ callId: 'c2', turnId: 't1', toolName: 'edit', arguments: { a: 2 } });
    await shown(confirmations);
    confirmations.deny('not now');
    expect(await no).toEqual({ approved: false, reason: 'not now' });
  });

  it('drives the app-tool host: deny answers REJECTED, approve runs the tool once', async () => {
    const confirmations = createConfirmationController();
    const run = vi.fn((args: { text: string }) => ({ inserted: args.text }));
    const host = createAppToolHost({ requestApproval: createAppToolApprovalHandler(confirmations) });
    host.register({ name: 'insert_text', confirm: true, run });

    const denied = host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'insert_text', arguments: { text: 'a' } });
    await shown(confirmations);
    confirmations.deny('no thanks');
    expect(await denied).toMatchObject({ ok: false, code: 'REJECTED' });

    const approved = host.call({ callId: 'c2', turnId: 't1', epoch: 0, name: 'insert_text', arguments: { text: 'b' } });
    await shown(confirmations);
    confirmations.approve();
    confirmations.approve();
    expect(await approved).toEqual({ ok: true, output: { inserted: 'b' } });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('takes a withdrawn request (interrupted turn) out of the queue', async () => {
    const confirmations = createConfirmationController();
    const host = createAppToolHost({ requestApproval: createAppToolApprovalHandler(confirmations) });
    const run = vi.fn();
    host.register({ name: 'insert_text', confirm: true, run });
    const call = host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'insert_text', arguments: { text: 'a' } });
    await shown(confirmations);
    host.interrupt('t1');
    expect(await call).toMatchObject({ ok: false, code: 'INTERRUPTED' });
    await until(confirmations, (s) => s.current === null);
    expect(confirmations.approve()).toBe(false);
    expect(run).not.toHaveBeenCalled();
  });

  it('uses the descriptor the application gives for an app tool', async () => {
    const confirmations = createConfirmationController();
    const requestApproval = createAppToolApprovalHandler(confirmations, {
      describe: (name) => (name === 'read_doc' ? { effect: 'read', risk: 'low', requiresConfirmation: false } : undefined),
    });
    // Needs no confirmation: approved without review.
    expect(await requestApproval({ callId: 'c1', turnId: 't1', toolName: 'read_doc', arguments: {} })).toEqual({ approved: true });
    expect(confirmations.getState().current).toBeNull();
  });
});
