/**
 * Standing grants are rules: "Allow for this session" and "Deny for this session" keep a rule of
 * origin `grant` in the grants store, plain data that survives a reload, and the same rule
 * evaluation as every other rule answers by it (with or without an app policy). The record names
 * the rule (`ruleId`, `ruleLabel`) and says a grant decided; revoking the grant removes its rule;
 * a high-risk tool is never allowed by it, even by a grant rule read back from storage.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  createConfirmationController,
  createToolgate,
  selectApprovalRecord,
  type ApprovalContext,
  type ConfirmationControllerOptions,
  type JsonValue,
  type ToolDescriptor,
} from 'toolgate/core';
import { createSessionPersistence } from 'toolgate/client';
import { createApprovalPolicy, createToolGrants, type PolicyRule } from 'toolgate/policy';
import { callEvents } from 'toolgate/testing';
import { keepGrants } from '../../src/core/session/session-persistence';
import { fakeStorage } from '../fixtures/fake-storage';
import { settleAll, shown } from './confirmation-helpers';

const medium: ToolDescriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true };
const high: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };

function setup(options: ConfirmationControllerOptions = {}) {
  const confirmations = createConfirmationController(options);
  const runs: { args: JsonValue; context: ApprovalContext }[] = [];
  const ask = (toolName: string, args: JsonValue, descriptor: Partial<ToolDescriptor> = medium) =>
    confirmations.request({
      toolName,
      arguments: args,
      descriptor,
      onApprove: (approved, context) => {
        runs.push({ args: approved, context });
        return null;
      },
    });
  return { confirmations, runs, ask };
}

describe('standing grants are rules', () => {
  it('keeps "Allow for this session" as a rule of origin grant, and that rule answers the next request', async () => {
    const { confirmations, runs, ask } = setup();
    const first = ask('search_docs', { q: 'a' });
    await shown(confirmations);
    expect(confirmations.allowForSession()).toBe(true);
    expect((await first).status).toBe('done');
    const [rule] = confirmations.grants.getState().rules;
    expect(rule).toMatchObject({ decision: 'allow', tools: ['search_docs'], scope: { kind: 'session' }, origin: 'grant', label: 'search_docs for this session' });
    // Plain data: it survives JSON unchanged.
    expect(JSON.parse(JSON.stringify(rule))).toEqual(rule);
    expect(confirmations.grants.find('search_docs')?.id).toBe(rule!.id);

    expect((await ask('search_docs', { q: 'b' })).status).toBe('done');
    expect(runs[1]!.context).toMatchObject({ automatic: true, decidedBy: { by: 'rule', ruleId: rule!.id, origin: 'grant', decision: 'allow', label: 'search_docs for this session' } });
  });

  it('answers by the same rule evaluation with an app policy, and beside the app\'s rules (an app deny still wins)', async () => {
    const noEve: PolicyRule = { id: 'no-eve', decision: 'deny', tools: ['send_mail'], when: [{ pointer: '/to', equals: 'eve@example.test' }], scope: { kind: 'session' }, origin: 'app' };
    const { confirmations, runs, ask } = setup({ policy: createApprovalPolicy({ rules: [noEve] }) });
    const grant = confirmations.grants.allow('send_mail');
    expect((await ask('send_mail', { to: 'ada@example.test' })).status).toBe('done');
    expect(runs[0]!.context.decidedBy).toMatchObject({ by: 'rule', ruleId: grant.id, origin: 'grant' });
    expect(await ask('send_mail', { to: 'eve@example.test' })).toEqual({ status: 'denied', reason: 'denied by rule no-eve' });
    expect(runs).toHaveLength(1);
  });

  it('still answers by a person\'s grant when the app policy is in shadow mode (only the app\'s rules are on trial)', async () => {
    const { confirmations, runs, ask } = setup({ policy: createApprovalPolicy({ mode: 'shadow' }) });
    const grant = confirmations.grants.allow('search_docs');
    expect((await ask('search_docs', { q: 'a' })).status).toBe('done');
    expect(runs[0]!.context.decidedBy).toMatchObject({ by: 'rule', ruleId: grant.id });
  });

  it('records the rule that answered: by grant, with its rule id and label', async () => {
    const client = createToolgate();
    for (const event of callEvents('c1', { name: 'search_docs', arguments: { q: 'a' }, outcome: 'open' })) client.calls.getState().dispatch(event);
    const grant = client.approvals.grants.allow('search_docs');
    const outcome = await client.approvals.request({ callId: 'c1', toolName: 'search_docs', arguments: { q: 'a' }, descriptor: medium, onApprove: () => 'ok' });
    expect(outcome.status).toBe('done');
    const record = selectApprovalRecord(client.approvals.records.getState(), 'c1');
    expect(record).toMatchObject({ status: 'approved', by: 'grant', ruleId: grant.id, ruleLabel: 'search_docs for this session', grant: grant.id });
    // The card's fields follow the record: the rule that answered, by its label.
    await vi.waitFor(() => expect(client.calls.getState().calls['c1']?.approval).toBe('approved'));
    expect(client.calls.getState().calls['c1']).toMatchObject({ approvalBy: 'rule', approvalRuleId: grant.id, approvalRuleLabel: 'search_docs for this session', approvalGrant: grant.id });
    client.close();
  });

  it('denies by a "Deny for this session" rule, naming it, with a reason the model can hear', async () => {
    const { confirmations, ask } = setup();
    const grant = confirmations.grants.deny('send_invoice');
    expect(confirmations.grants.getState().rules).toEqual([expect.objectContaining({ id: grant.id, decision: 'deny', origin: 'grant' })]);
    const outcome = ask('send_invoice', { to: 'ann' });
    expect(await outcome).toEqual({ status: 'denied', reason: 'send_invoice is denied for this session' });
  });

  it('survives a reload: saved with the grants by the session persistence, restored on the next page, and it answers there', async () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    persistence.saveResume({ sessionId: 's1', token: 't', lastSeq: 0 });
    const before = setup();
    const stop = keepGrants(persistence, before.confirmations.grants);
    const grant = before.confirmations.grants.allow('search_docs');
    const rules = before.confirmations.grants.getState().rules;
    stop();
    persistence.flush();

    const next = createSessionPersistence({ storage: storage.copy() });
    const after = setup();
    keepGrants(next, after.confirmations.grants);
    await vi.waitFor(() => expect(after.confirmations.grants.getState().rules).toHaveLength(1));
    expect(after.confirmations.grants.getState().rules).toEqual(rules);
    expect((await after.ask('search_docs', { q: 'again' })).status).toBe('done');
    expect(after.runs[0]!.context.decidedBy).toMatchObject({ by: 'rule', ruleId: grant.id, origin: 'grant' });
  });

  it('reads a grant saved before grants were rules (version 1) as its rule', async () => {
    const grants = createToolGrants({ saved: { version: 1, grants: [{ id: 'grant-9', toolName: 'search_docs', decision: 'allow', grantedAt: 5 }] } });
    expect(grants.getState().rules).toEqual([{ id: 'grant-9', decision: 'allow', tools: ['search_docs'], scope: { kind: 'session' }, origin: 'grant', label: 'search_docs for this session', madeAt: 5 }]);
    expect(grants.save()).toEqual({ version: 2, rules: grants.getState().rules });
    const { runs, ask } = setup({ grants });
    expect((await ask('search_docs', { q: 'a' })).status).toBe('done');
    expect(runs[0]!.context.decidedBy).toMatchObject({ ruleId: 'grant-9' });
  });

  it('stops answering once revoked: the rule is gone and the next request is shown to a person', async () => {
    const { confirmations, runs, ask } = setup();
    const grant = confirmations.grants.allow('search_docs');
    expect((await ask('search_docs', { q: 'a' })).status).toBe('done');
    expect(confirmations.grants.revoke(grant.id)).toBe(true);
    expect(confirmations.grants.getState().rules).toEqual([]);
    expect(confirmations.grants.find('search_docs')).toBeUndefined();
    void ask('search_docs', { q: 'b' });
    const view = await shown(confirmations);
    expect(view).toMatchObject({ toolName: 'search_docs', status: 'reviewing', decidedBy: null });
    expect(runs).toHaveLength(1);
    confirmations.deny();
    await settleAll();
  });

  it('never allows a high-risk tool by it, nor by a grant rule for one read back from storage', async () => {
    const grants = createToolGrants({
      saved: { version: 2, rules: [{ id: 'grant-1', decision: 'allow', tools: ['transfer'], scope: { kind: 'session' }, origin: 'grant', label: 'transfer for this session' }] },
    });
    const { confirmations, runs, ask } = setup({ grants });
    void ask('transfer', { amount: 1 }, high);
    const view = await shown(confirmations);
    expect(view).toMatchObject({ toolName: 'transfer', decidedBy: null, grantRefusal: 'high-risk' });
    expect(view.can.allowForSession).toBe(false);
    expect(confirmations.allowForSession()).toBe(false);
    confirmations.deny();
    // A grant given in code for a high-risk tool is kept, and still answers nothing of it.
    confirmations.grants.allow('wire_money');
    void ask('wire_money', { amount: 2 }, high);
    expect((await shown(confirmations)).decidedBy).toBeNull();
    confirmations.deny();
    await settleAll();
    expect(runs).toHaveLength(0);
  });
});
