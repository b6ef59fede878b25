/**
 * The server's gate beyond approve and deny: an `editable` request answered with the person's edited
 * arguments and their own fingerprint; a standing grant's answer sent `automatic: true`; an
 * expired request answered with nothing (the server ends it itself); a deny's reason always sent;
 * and the call's card marked with what happened.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createConfirmationController, createToolStreamStore, type ToolCall } from 'toolgate/core';
import { connectApprovalGate } from 'toolgate/client';
import { callEvents, createManualClock, createScriptedSession } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { settleAll, shown } from './confirmation-helpers';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const START = Date.UTC(2026, 11, 1, 12);

function setup(request: Record<string, unknown> = {}) {
  const clock = createManualClock({ start: START });
  const session = createScriptedSession();
  const confirmations = createConfirmationController({ clock });
  const store = createToolStreamStore();
  session.subscribe((event) => store.getState().dispatch(event));
  const schema = { type: 'object', properties: { service: { type: 'string' }, version: { type: 'string' } }, required: ['service'] };
  const stop = connectApprovalGate(session, confirmations, { calls: store, schemaOf: (name) => (name === 'deploy_service' ? schema : undefined) });
  for (const event of callEvents('d1', { name: 'deploy_service', arguments: { service: 'billing', version: 'latest' }, outcome: 'open' })) session.emit(event);
  const emit = (more: Record<string, unknown> = {}) =>
    session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'd1', turnId: 't1', name: 'deploy_service', arguments: { service: 'billing', version: 'latest' }, risk: 'medium', ...request, ...more });
  const call = () => callOf(store.getState(), 'd1') as ToolCall;
  return { clock, session, confirmations, store, stop, emit, call };
}

describe("the server's gate: edits, grants, expiry, reasons and marks", () => {
  it('sends the edited arguments with their own fingerprint, and marks the call approved and edited with what runs', async () => {
    const { session, confirmations, emit, call, stop } = setup({ editable: true });
    emit();
    const view = await shown(confirmations);
    expect(view).toMatchObject({ editable: true, schema: { required: ['service'] } });
    confirmations.edit();
    expect(await confirmations.submitEdit({ service: 'billing', version: '2.4.1' })).toEqual({ ok: true });
    await shown(confirmations);
    confirmations.approve();
    const reply = await session.waitForMessage('tool.approval');
    expect(reply).toEqual({
      type: 'tool.approval',
      requestId: 'r1',
      approved: true,
      toolName: expect.any(String),
      definitionFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      decision: 'approve',
      fingerprint: sha256('{"service":"billing","version":"2.4.1"}'),
      arguments: { service: 'billing', version: '2.4.1' },
    });
    await settleAll();
    expect(call()).toMatchObject({ approval: 'approved', approvalEdited: true, approvedArguments: { service: 'billing', version: '2.4.1' } });
    stop();
  });

  it('sends no arguments when the person did not edit, and offers no editor where the server did not mark the request editable', async () => {
    const { session, confirmations, emit, stop } = setup();
    emit();
    const view = await shown(confirmations);
    expect(view.can.edit).toBe(false);
    confirmations.approve();
    const reply = await session.waitForMessage('tool.approval');
    expect(reply).not.toHaveProperty('arguments');
    expect(reply).not.toHaveProperty('automatic');
    stop();
  });

  it('keeps an edit that breaks the schema in the editor, and sends nothing', async () => {
    const { session, confirmations, emit, stop } = setup({ editable: true });
    emit();
    await shown(confirmations);
    confirmations.edit();
    const result = await confirmations.submitEdit({ version: '2' });
    expect(result).toMatchObject({ ok: false, issues: [{ path: [] }] });
    await settleAll();
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([]);
    stop();
  });

  it('answers with automatic: true when a standing grant answers, and the card names the grant', async () => {
    const { session, confirmations, emit, call, stop } = setup();
    const grant = confirmations.grants.allow('deploy_service');
    emit();
    const reply = await session.waitForMessage('tool.approval');
    expect(reply).toMatchObject({ approved: true, automatic: true, fingerprint: sha256('{"service":"billing","version":"latest"}') });
    await settleAll();
    expect(call()).toMatchObject({ approval: 'approved', approvalGrant: grant.id });
    stop();
  });

  it('sends a deny grant’s answer with its reason and automatic: true', async () => {
    const { session, confirmations, emit, call, stop } = setup();
    const grant = confirmations.grants.deny('deploy_service');
    emit();
    const reply = await session.waitForMessage('tool.approval');
    expect(reply).toMatchObject({ approved: false, automatic: true, reason: 'deploy_service is denied for this session' });
    await settleAll();
    expect(call()).toMatchObject({ approval: 'denied', approvalGrant: grant.id, approvalReason: 'deploy_service is denied for this session' });
    stop();
  });

  it('sends nothing for a request that expired, marks the call expired, and ignores a late approval', async () => {
    const { clock, session, confirmations, emit, call, stop } = setup({ expiresAt: START + 20_000 });
    emit();
    const view = await shown(confirmations);
    expect(call().approval).toBe('awaiting');
    await clock.advance(20_000);
    expect(confirmations.approve({ requestId: view.id })).toBe(false);
    await settleAll();
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([]);
    expect(call().approval).toBe('expired');
    stop();
  });

  it('ends a request expired, not withdrawn, when its call ends as its expiry falls due before the page’s timer fired', async () => {
    const { clock, session, confirmations, emit, call, stop } = setup({ expiresAt: START + 3_000 });
    // The server's settled REJECTED, sent at expiresAt, arrives before the controller's own timer fires.
    clock.setTimeout(() => session.emit({ type: 'tool.stream', phase: 'settled', callId: 'd1', ok: false, code: 'REJECTED' }), 3_000);
    emit();
    await shown(confirmations);
    await clock.advance(3_000);
    await settleAll();
    expect(confirmations.getState().current).toMatchObject({ status: 'expired' });
    expect(call().approval).toBe('expired');
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([]);
    stop();
  });

  it('still withdraws a request whose call ends before its expiry is due', async () => {
    const { clock, session, confirmations, emit, call, stop } = setup({ expiresAt: START + 3_000 });
    emit();
    await shown(confirmations);
    await clock.advance(1_000);
    session.emit({ type: 'tool.stream', phase: 'settled', callId: 'd1', ok: false, code: 'REJECTED' });
    await settleAll();
    expect(confirmations.getState().current).toBeNull();
    expect(call().approval).not.toBe('expired');
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([]);
    stop();
  });

  it('refuses an approval request whose editable or expiresAt is not what it should be', async () => {
    const { session, emit, stop } = setup();
    emit({ requestId: 'bad', editable: 'yes' });
    emit({ requestId: 'bad2', expiresAt: 'soon' });
    await settleAll();
    expect(session.sent.filter((m) => m.type === 'tool.approval').map((m) => [m.requestId, m.approved])).toEqual([
      ['bad', false],
      ['bad2', false],
    ]);
    stop();
  });
});
