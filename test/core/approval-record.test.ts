/**
 * One approval record per call, written by the confirmation controller alone: after every step a
 * person (or a grant, a list, the clock, the server) takes, the call's approval fields in the
 * store are exactly what its record says (docs/architecture.md, "The approval record").
 */
import { describe, expect, it, vi } from 'vitest';
import { createToolgate, selectApprovalRecord, type ApprovalRecord, type ToolCall, type ToolgateClient } from 'toolgate/core';
import { createManualClock, createScriptedSession, type ManualClock } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { settleAll, shown, until } from './confirmation-helpers';

const START = 1_000_000;

function setup(clock: ManualClock = createManualClock({ start: START })) {
  const frames = new Set<(frame: Record<string, unknown>) => void>();
  const session = Object.assign(createScriptedSession(), {
    onFrame: (listener: (frame: Record<string, unknown>) => void) => {
      frames.add(listener);
      return () => frames.delete(listener);
    },
  });
  const client = createToolgate({ approvalOptions: { clock } });
  client.connect(session);
  const frame = (value: Record<string, unknown>) => {
    for (const listener of frames) listener(value);
  };
  const ask = (callId: string, requestId: string, name: string, args: unknown, extra: Record<string, unknown> = {}) => {
    session.emit({ type: 'tool.stream', phase: 'start', callId, turnId: 't1', name });
    session.emit({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: args });
    session.emit({ type: 'tool.approval-request', requestId, callId, name, arguments: args, risk: 'low', effect: 'write', ...extra });
  };
  return { client, session, frame, ask, clock };
}

const recordOf = (client: ToolgateClient, callId: string) => selectApprovalRecord(client.approvals.records.getState(), callId) as ApprovalRecord;
const callIn = (client: ToolgateClient, callId: string) => callOf(client.calls.getState(), callId) as ToolCall;

/** The call shows its record: the same status, reason and grant, and what runs only while the approval counts. */
function expectCallFollowsRecord(client: ToolgateClient, callId: string): ApprovalRecord {
  const record = recordOf(client, callId);
  const call = callIn(client, callId);
  expect(record).toBeDefined();
  expect(call.approval).toBe(record.status);
  expect(call.approvalReason).toBe(record.reason);
  const decided = record.status === 'approved' || record.status === 'denied';
  expect(call.approvalGrant).toBe(decided ? record.grant : undefined);
  expect(call.approvalEdited).toBe(record.status === 'approved' && record.edited ? true : undefined);
  if (record.status === 'approved') expect(call.approvedArguments).toEqual(record.approvedArguments);
  else expect(call.approvedArguments).toBeUndefined();
  expect(Object.isFrozen(record)).toBe(true);
  return record;
}

describe('the approval record: one per call, written by the controller, shown by the call', () => {
  it('approve: awaiting, then approved by a person with the fingerprint of what runs', async () => {
    const { client, ask, clock } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' });
    // The client's approvals load their flow on the first request: the record is written once it has.
    await vi.waitFor(() => expect(recordOf(client, 'c1')).toBeDefined());
    expect(expectCallFollowsRecord(client, 'c1')).toMatchObject({ status: 'awaiting', toolName: 'send_mail', requestedAt: START, decision: undefined, by: undefined });
    // The record names the controller's own request (the one the dialog shows).
    expect(recordOf(client, 'c1').requestId).toBe((await shown(client.approvals)).id);
    await clock.advance(250);
    expect(client.approvals.approve()).toBe(true);
    const record = expectCallFollowsRecord(client, 'c1');
    expect(record).toMatchObject({ status: 'approved', decision: 'approve', by: 'person', edited: false, approvedArguments: { to: 'ada' }, decidedAt: START + 250 });
    expect(record.argumentsFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(record.definitionFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('deny: denied by a person, with the reason', async () => {
    const { client, ask } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' });
    await shown(client.approvals);
    expect(client.approvals.deny('not to her')).toBe(true);
    expect(expectCallFollowsRecord(client, 'c1')).toMatchObject({ status: 'denied', decision: 'deny', by: 'person', reason: 'not to her' });
  });

  it('edit: approved with the edited snapshot, marked edited', async () => {
    const { client, ask } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' }, { editable: true });
    await shown(client.approvals);
    expect(client.approvals.edit()).toBe(true);
    expect(await client.approvals.submitEdit({ to: 'bob' })).toEqual({ ok: true });
    await shown(client.approvals);
    expect(expectCallFollowsRecord(client, 'c1').status).toBe('awaiting');
    expect(client.approvals.approve()).toBe(true);
    expect(expectCallFollowsRecord(client, 'c1')).toMatchObject({ status: 'approved', edited: true, approvedArguments: { to: 'bob' } });
  });

  it('grant: the first approved by a person who allows the tool, the next by the grant, named', async () => {
    const { client, ask } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' });
    await shown(client.approvals);
    expect(client.approvals.allowForSession()).toBe(true);
    ask('c2', 'r2', 'send_mail', { to: 'bob' });
    await until(client.approvals, () => recordOf(client, 'c2')?.status === 'approved');
    expect(expectCallFollowsRecord(client, 'c1')).toMatchObject({ status: 'approved', by: 'person', grant: undefined });
    const grant = client.approvals.grants.find('send_mail');
    expect(expectCallFollowsRecord(client, 'c2')).toMatchObject({ status: 'approved', by: 'grant', grant: grant?.id });
  });

  it('expire: expired when its time passes, decided by nobody, and a late approval changes nothing', async () => {
    const { client, ask, clock } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' }, { expiresAt: START + 5_000 });
    await shown(client.approvals);
    await clock.advance(5_000);
    expect(expectCallFollowsRecord(client, 'c1')).toMatchObject({ status: 'expired', decision: 'expire', by: undefined, decidedAt: START + 5_000 });
    expect(client.approvals.approve({ callId: 'c1' })).toBe(false);
    expect(expectCallFollowsRecord(client, 'c1').status).toBe('expired');
  });

  it('batch: "Approve all" records each call decided by the list', async () => {
    const { client, ask } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' });
    ask('c2', 'r2', 'send_mail', { to: 'bob' });
    await shown(client.approvals);
    await until(client.approvals, (s) => s.queue.every((v) => v.fingerprint !== null));
    const views = [client.approvals.getState().current, ...client.approvals.getState().queue];
    const picks = views.map((v) => ({ requestId: v!.id, fingerprint: v!.fingerprint!.hex, toolName: v!.toolName }));
    expect(client.approvals.approveAll(picks)).toHaveLength(2);
    for (const callId of ['c1', 'c2']) expect(expectCallFollowsRecord(client, callId)).toMatchObject({ status: 'approved', by: 'batch' });
  });

  it("the server's refusal overrules the approval it refused, and the call follows", async () => {
    const { client, ask, frame } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' });
    await shown(client.approvals);
    client.approvals.approve();
    frame({ type: 'error', requestId: 'r1', code: 'FINGERPRINT_MISMATCH', message: 'not what was asked' });
    expect(expectCallFollowsRecord(client, 'c1')).toMatchObject({ status: 'refused', by: 'person', reason: 'FINGERPRINT_MISMATCH: not what was asked', approvedArguments: { to: 'ada' } });
  });

  it('keeps a decision final: noteAnswer cannot turn a denial into anything else, and refuses what is not a note', async () => {
    const { client, ask } = setup();
    ask('c1', 'r1', 'send_mail', { to: 'ada' });
    await shown(client.approvals);
    client.approvals.deny();
    const denied = recordOf(client, 'c1');
    expect(client.approvals.noteAnswer('c1', { status: 'refused', reason: 'late' })).toBe(false);
    expect(client.approvals.noteAnswer('c1', { status: 'approved' } as never)).toBe(false);
    expect(client.approvals.noteAnswer('', { status: 'denied' })).toBe(false);
    expect(client.approvals.noteAnswer('c1', null as never)).toBe(false);
    expect(recordOf(client, 'c1')).toBe(denied);
    expectCallFollowsRecord(client, 'c1');
  });

  it('records a request for a call the store does not show, and marks nothing there', async () => {
    const { client, session } = setup();
    session.emit({ type: 'tool.approval-request', requestId: 'r9', callId: 'elsewhere', name: 'x', arguments: {}, risk: 'low' });
    await settleAll();
    expect(recordOf(client, 'elsewhere')).toMatchObject({ status: 'awaiting', toolName: 'x' });
    expect(callOf(client.calls.getState(), 'elsewhere')).toBeUndefined();
  });

  it('a call id that names a prototype key is an ordinary record', async () => {
    const { client, ask } = setup();
    ask('__proto__', 'r1', 'send_mail', { to: 'ada' });
    await shown(client.approvals);
    client.approvals.deny('no');
    expect(recordOf(client, '__proto__')).toMatchObject({ status: 'denied', reason: 'no' });
    expect(Object.getPrototypeOf(client.approvals.records.getState().records)).toBe(Object.prototype);
    expect(selectApprovalRecord(client.approvals.records.getState(), 'toString')).toBeUndefined();
  });
});

describe('nextApprovalRecord: the record’s one transition function', () => {
  it('names the rule that decided, keeps a decision final, and lets only a note overrule an approval', async () => {
    const { nextApprovalRecord } = await import('../../src/core/approval/approval-record');
    const asked = nextApprovalRecord(undefined, { kind: 'requested', callId: 'c1', requestId: 'q1', toolName: 'rm' }, 1);
    expect(nextApprovalRecord(asked, { kind: 'requested', callId: 'c1', requestId: 'q2', toolName: 'rm' }, 2)).toBe(asked);
    const approved = nextApprovalRecord(asked, {
      kind: 'approved',
      callId: 'c1',
      requestId: 'q1',
      toolName: 'rm',
      approvedArguments: { path: '/tmp' },
      edited: false,
      decidedBy: { by: 'rule', ruleId: 'tmp-only' },
      argumentsFingerprint: 'ab',
      definitionFingerprint: undefined,
    }, 3);
    expect(approved).toMatchObject({ status: 'approved', by: 'rule', ruleId: 'tmp-only', decidedAt: 3, requestedAt: 1, argumentsFingerprint: 'ab' });
    const denied = { kind: 'ended', callId: 'c1', requestId: 'q1', toolName: 'rm', mark: { approval: 'denied' }, decision: 'deny', decidedBy: null } as const;
    expect(nextApprovalRecord(approved, denied, 4)).toBe(approved);
    expect(nextApprovalRecord(approved, { ...denied, overrule: true }, 5)).toMatchObject({ status: 'denied', by: 'rule', ruleId: 'tmp-only', decidedAt: 3, updatedAt: 5 });
  });
});
