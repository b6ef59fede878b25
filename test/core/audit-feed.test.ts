// The client feeds the audit log (docs/guarantees.md "An audit trail that shows tampering"): every
// call that involved a decision gets requested, decided, ran (when it ran) and settled records,
// chained so that verifyAuditLog holds.
import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, createConfirmationController, createToolgate, type ClientMessage } from 'toolgate/core';
import { createAuditLog, type AuditRecord } from 'toolgate/audit';
import { fingerprintJson } from 'toolgate/json';
import { fingerprintToolDefinition } from 'toolgate/server';
import { createScriptedSession } from 'toolgate/testing';

const start = (callId: string, name: string) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't1', name });
const complete = (callId: string, args: unknown = { to: 'ada@example.test', amount: 5 }) => ({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: args });
const request = (requestId: string, callId: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool.approval-request',
  requestId,
  callId,
  turnId: 't1',
  name: 'send_money',
  arguments: { to: 'ada@example.test', amount: 5 },
  risk: 'medium',
  effect: 'write',
  description: 'Send money',
  ...extra,
});
const settled = (callId: string, fields: Record<string, unknown>) => ({ type: 'tool.stream', phase: 'settled', callId, ...fields });
const answers = (sent: readonly ClientMessage[]) => sent.filter((m): m is Extract<ClientMessage, { type: 'tool.approval' }> => m.type === 'tool.approval');
const hex = async (value: unknown) => (await fingerprintJson(value as never)).hex;

function setUp() {
  let clock = 1_000;
  const audit = createAuditLog({ now: () => clock++ });
  const client = createToolgate({ audit });
  const session = createScriptedSession();
  client.connect(session);
  const records = () => audit.getState().records;
  const shown = (callId: string) => vi.waitFor(() => expect(client.approvals.getState().current).toMatchObject({ callId, status: 'reviewing' }));
  return { audit, client, session, records, shown };
}

const brief = (records: readonly AuditRecord[]) => records.map((r) => `${r.type}:${r.callId}${r.type === 'decided' ? `:${r.kind}:${r.by}` : r.type === 'settled' ? `:${r.code}` : ''}`);

describe('createToolgate({ audit }) feeds the audit log', () => {
  it('records requested, decided, ran and settled for an approved server call, and the chain verifies', async () => {
    const { audit, client, session, records, shown } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1'));
    session.emit(request('r1', 'c1'));
    await shown('c1');
    expect(client.approvals.approve()).toBe(true);
    await session.waitFor((s) => answers(s.sent).length === 1);
    session.emit(settled('c1', { ok: true, output: { receipt: 'r-9' } }));
    await vi.waitFor(() => expect(records()).toHaveLength(4));
    expect(brief(records())).toEqual(['requested:c1', 'decided:c1:approve:person', 'ran:c1', 'settled:c1:OK']);
    const [requested, , ran, end] = records() as [Extract<AuditRecord, { type: 'requested' }>, AuditRecord, Extract<AuditRecord, { type: 'ran' }>, Extract<AuditRecord, { type: 'settled' }>];
    const args = { to: 'ada@example.test', amount: 5 };
    expect(requested.arguments).toEqual(args);
    expect(requested.argumentsFingerprint).toBe(await hex(args));
    expect(requested.toolName).toBe('send_money');
    const definition = await fingerprintToolDefinition({ name: 'send_money', description: 'Send money', descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true } });
    expect(requested.definitionFingerprint).toBe(definition.hex);
    // What ran is what the page approved, the fingerprint it sent to the server.
    expect(ran.argumentsFingerprint).toBe(answers(session.sent)[0]?.fingerprint);
    expect(end.outputFingerprint).toBe(await hex({ receipt: 'r-9' }));
    expect(await audit.verify()).toEqual({ ok: true, length: 4, head: records()[3]?.hash });
  });

  it('records an edit as what ran: the ran fingerprint is the edit’s, not the arguments shown', async () => {
    const { session, client, records, shown } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1'));
    session.emit(request('r1', 'c1', { editable: true }));
    await shown('c1');
    client.approvals.edit();
    expect((await client.approvals.submitEdit({ to: 'ada@example.test', amount: 3 })).ok).toBe(true);
    await vi.waitFor(() => expect(client.approvals.getState().current?.status).toBe('reviewing'));
    client.approvals.approve();
    session.emit(settled('c1', { ok: true }));
    await vi.waitFor(() => expect(records()).toHaveLength(4));
    const ran = records()[2] as Extract<AuditRecord, { type: 'ran' }>;
    const requested = records()[0] as Extract<AuditRecord, { type: 'requested' }>;
    expect(ran.argumentsFingerprint).toBe(await hex({ to: 'ada@example.test', amount: 3 }));
    expect(ran.argumentsFingerprint).not.toBe(requested.argumentsFingerprint);
    expect((records()[3] as Extract<AuditRecord, { type: 'settled' }>).outputFingerprint).toBeNull();
  });

  it('records a deny with its reason and no ran record', async () => {
    const { session, client, records, audit, shown } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1'));
    session.emit(request('r1', 'c1'));
    await shown('c1');
    client.approvals.deny('not this month');
    session.emit(settled('c1', { ok: false, code: 'REJECTED', message: 'not this month' }));
    await vi.waitFor(() => expect(records()).toHaveLength(3));
    expect(brief(records())).toEqual(['requested:c1', 'decided:c1:deny:person', 'settled:c1:REJECTED']);
    expect(records()[1]).toMatchObject({ reason: 'not this month', ruleId: null });
    expect((await audit.verify()).ok).toBe(true);
  });

  it('records a person’s answer (respond) with the answer’s fingerprint as the output, and nothing ran', async () => {
    const { session, client, records, shown } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1'));
    session.emit(request('r1', 'c1'));
    await shown('c1');
    client.approvals.respond({ sent: false, note: 'I paid in cash' });
    session.emit(settled('c1', { ok: true, output: { sent: false, note: 'I paid in cash' }, answeredBy: 'person' }));
    await vi.waitFor(() => expect(records()).toHaveLength(3));
    expect(brief(records())).toEqual(['requested:c1', 'decided:c1:respond:person', 'settled:c1:OK']);
    expect((records()[2] as Extract<AuditRecord, { type: 'settled' }>).outputFingerprint).toBe(await hex({ sent: false, note: 'I paid in cash' }));
  });

  it('records a cancel as cancel (not a deny), and the call’s end as CANCELLED', async () => {
    const { session, client, records, shown } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1'));
    session.emit(request('r1', 'c1'));
    await shown('c1');
    client.approvals.cancel('asked by mistake');
    session.emit({ type: 'tool.stream', phase: 'cancelled', callId: 'c1' });
    await vi.waitFor(() => expect(records()).toHaveLength(3));
    expect(brief(records())).toEqual(['requested:c1', 'decided:c1:cancel:person', 'settled:c1:CANCELLED']);
    expect(records()[1]).toMatchObject({ reason: 'asked by mistake' });
  });

  it('names the grant that answered a request as its rule, decided by grant', async () => {
    const { session, client, records, shown } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1'));
    session.emit(request('r1', 'c1'));
    await shown('c1');
    expect(client.approvals.allowForSession()).toBe(true);
    session.emit(start('c2', 'send_money'));
    session.emit(complete('c2'));
    session.emit(request('r2', 'c2'));
    await session.waitFor((s) => answers(s.sent).length === 2);
    session.emit(settled('c1', { ok: true }));
    session.emit(settled('c2', { ok: true }));
    await vi.waitFor(() => expect(records()).toHaveLength(8));
    const decided = records().filter((r): r is Extract<AuditRecord, { type: 'decided' }> => r.type === 'decided');
    const grantId = client.approvals.grants.getState().grants[0]?.id;
    expect(grantId).toBeTypeOf('string');
    expect(decided.map((r) => [r.callId, r.by, r.ruleId])).toEqual([
      ['c1', 'person', null],
      ['c2', 'grant', grantId],
    ]);
  });

  it('records nothing for a call that involved no decision, nor for a request that expired', async () => {
    let now = 10_000;
    const audit = createAuditLog({ now: () => now });
    const timers: (() => void)[] = [];
    const client = createToolgate({
      audit,
      approvalOptions: { clock: { now: () => now, setTimeout: (f) => timers.push(f), clearTimeout: () => {} } },
    });
    const session = createScriptedSession();
    client.connect(session);
    session.emit(start('c1', 'search'));
    session.emit(settled('c1', { ok: true, output: [] }));
    session.emit(start('c2', 'send_money'));
    session.emit(complete('c2'));
    session.emit(request('r2', 'c2', { expiresAt: now + 1_000 }));
    await vi.waitFor(() => expect(client.approvals.getState().current?.callId).toBe('c2'));
    now += 2_000;
    for (const fire of timers.splice(0)) fire();
    // Expired before it was shown, it is gone; expired while shown, it stays for a person to read.
    await vi.waitFor(() => expect(client.approvals.getState().current?.status ?? 'gone').toMatch(/^(gone|expired)$/));
    // The requested record waits for the definition's fingerprint: wait for it, not for a tick (a loaded machine is slower).
    await vi.waitFor(() => expect(brief(audit.getState().records)).toContain('requested:c2'));
    await audit.idle();
    expect(brief(audit.getState().records)).toEqual(['requested:c2']);
  });

  it('records an app tool’s approval and the end its call has in the store', async () => {
    const audit = createAuditLog();
    const host = createAppToolHost();
    const client = createToolgate({ audit, host });
    const session = createScriptedSession();
    client.connect(session);
    host.register({ name: 'insert_text', confirm: true, run: (args: unknown) => ({ inserted: (args as { text: string }).text }) });
    session.emit(start('a1', 'insert_text'));
    session.emit(complete('a1', { text: 'hi' }));
    const result = session.callTool({ callId: 'a1', turnId: 't1', name: 'insert_text', arguments: { text: 'hi' } });
    await vi.waitFor(() => expect(client.approvals.getState().current).toMatchObject({ callId: 'a1', status: 'reviewing' }));
    client.approvals.approve();
    await expect(result).resolves.toEqual({ ok: true, output: { inserted: 'hi' } });
    session.emit(settled('a1', { ok: true, output: { inserted: 'hi' } }));
    await vi.waitFor(() => expect(audit.getState().records).toHaveLength(4));
    expect(brief(audit.getState().records)).toEqual(['requested:a1', 'decided:a1:approve:person', 'ran:a1', 'settled:a1:OK']);
    expect((await audit.verify()).ok).toBe(true);
  });

  it('records a room’s request, decided by a person, with the room’s own answer as its end', async () => {
    const audit = createAuditLog();
    const room = { confirmTool: async () => 'conf-1', invokeTool: async () => ({ receipt: 'r-1' }) };
    const client = createToolgate({ audit, approvalOptions: { room } });
    const outcome = client.approvals.request({ toolName: 'transfer', arguments: { to: 'bob' }, descriptor: { effect: 'write', risk: 'medium' } });
    await vi.waitFor(() => expect(client.approvals.getState().current?.status).toBe('reviewing'));
    client.approvals.approve();
    expect((await outcome).status).toBe('done');
    await vi.waitFor(() => expect(audit.getState().records).toHaveLength(4));
    expect(brief(audit.getState().records)).toEqual(['requested:request-1', 'decided:request-1:approve:person', 'ran:request-1', 'settled:request-1:OK']);
    expect((audit.getState().records[3] as Extract<AuditRecord, { type: 'settled' }>).outputFingerprint).toBe(await hex({ receipt: 'r-1' }));
  });

  it('tells onError of a request whose arguments the log refuses, and the flow goes on', async () => {
    const onError = vi.fn();
    const audit = createAuditLog();
    const controller = createConfirmationController();
    const client = createToolgate({ audit, approvals: controller, onError });
    const outcome = client.approvals.request({ toolName: 't', arguments: { when: new Date(0) }, onApprove: () => null });
    await expect(outcome).resolves.toMatchObject({ status: 'refused' });
    await audit.idle();
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(expect.stringContaining('audit log refused'), expect.anything(), 'audit-refused'));
    expect(audit.getState().records).toHaveLength(0);
  });

  it('is the same controller in every other way: the dialog’s state and grants are the original’s', () => {
    const controller = createConfirmationController();
    const client = createToolgate({ audit: createAuditLog(), approvals: controller });
    expect(client.approvals.getState()).toBe(controller.getState());
    expect(client.approvals.grants).toBe(controller.grants);
    expect(client.audit).toBeDefined();
    expect(createToolgate().audit).toBeUndefined();
  });
});

describe('createToolgate({ audit }) with a log not made by createAuditLog', () => {
  it('says so through onError and records nothing, and the approvals work as before', async () => {
    const onError = vi.fn();
    const real = createAuditLog();
    const { append, idle, getState, getInitialState, subscribe, checkpoint, verify, toJsonLines } = real;
    const handMade = { append, idle, getState, getInitialState, subscribe, checkpoint, verify, toJsonLines };
    const client = createToolgate({ audit: handMade, onError });
    expect(onError).toHaveBeenCalledWith(expect.stringContaining('not made by createAuditLog'), handMade, 'audit-refused');
    const outcome = client.approvals.request({ toolName: 't', arguments: {}, onApprove: () => null });
    await vi.waitFor(() => expect(client.approvals.getState().current?.status).toBe('reviewing'));
    client.approvals.approve();
    await expect(outcome).resolves.toMatchObject({ status: 'done' });
    expect(real.getState().records).toHaveLength(0);
  });
});
