/**
 * Policies inside the confirmation controller: a request is evaluated before a person sees it; a
 * deny rule denies it and an allow rule approves it, each naming the rule; an ask rule shows it;
 * shadow mode reports and still asks; a high-risk tool is never allowed automatically even when the
 * evaluation function says so; a `once` rule answers one request; an `until` rule stops at its time
 * by the controller's clock; scoped grants preview and answer the waiting requests; rules kept from
 * the dialog survive a reload with the grants.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, createToolStreamStore, createToolgate, type ApprovalContext, type ConfirmationControllerOptions, type JsonValue, type ToolDescriptor } from 'toolgate/core';
import { connectApprovalGate, createSessionPersistence } from 'toolgate/client';
import { createToolGrants, ruleOfGrant, scopedGrantCandidates, type ApprovalPolicy, type PolicyDecisionReport } from 'toolgate/policy';
import { createApprovalPolicy, evaluatePolicy, type PolicyRule } from 'toolgate/policy';
import { callEvents, createManualClock, createScriptedSession } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { keepGrants } from '../../src/core/session/session-persistence';
import { fakeStorage } from '../fixtures/fake-storage';
import { settleAll, shown, until } from '../core/confirmation-helpers';

const low: ToolDescriptor = { effect: 'write', risk: 'low', requiresConfirmation: true };
const high: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };

const rule = (id: string, decision: PolicyRule['decision'], tools: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({
  id,
  decision,
  tools,
  scope: { kind: 'session' },
  origin: 'app',
  ...extra,
});

function setup(policy: ApprovalPolicy | undefined, options: ConfirmationControllerOptions = {}) {
  const confirmations = createConfirmationController({ ...(policy === undefined ? {} : { policy }), ...options });
  const runs: { args: JsonValue; context: ApprovalContext }[] = [];
  const ask = (toolName: string, args: JsonValue, descriptor: Partial<ToolDescriptor> = low, turnId?: string) =>
    confirmations.request({
      toolName,
      arguments: args,
      descriptor,
      ...(turnId === undefined ? {} : { turnId }),
      onApprove: (approved, context) => {
        runs.push({ args: approved, context });
        return null;
      },
    });
  return { confirmations, runs, ask };
}

describe('a policy in the confirmation controller', () => {
  it('allows by a rule without showing the request, and the approval names the rule', async () => {
    const reports: PolicyDecisionReport[] = [];
    const policy = createApprovalPolicy({ rules: [rule('read-docs', 'allow', ['read_file'], { label: 'Docs are fine' })], onDecision: (r) => reports.push(r) });
    const { confirmations, runs, ask } = setup(policy);
    const outcome = await ask('read_file', { path: 'docs/a.md' });
    expect(outcome.status).toBe('done');
    expect(runs[0]!.context).toMatchObject({ automatic: true, decidedBy: { by: 'rule', ruleId: 'read-docs', label: 'Docs are fine', decision: 'allow' } });
    expect(confirmations.getState().current).toBeNull();
    expect(reports.map((r) => [r.result.decision, r.result.ruleId, r.acted, r.mode])).toEqual([['allow', 'read-docs', true, 'enforce']]);
  });

  it('denies by a rule with its reason, and a deny rule wins over an allow rule', async () => {
    const policy = createApprovalPolicy({ rules: [rule('mail', 'allow', ['send_mail']), rule('no-eve', 'deny', ['send_mail'], { when: [{ pointer: '/to', equals: 'eve@example.test' }] })] });
    const { runs, ask } = setup(policy);
    const outcome = await ask('send_mail', { to: 'eve@example.test' });
    expect(outcome).toEqual({ status: 'denied', reason: 'denied by rule no-eve' });
    expect(runs).toHaveLength(0);
    expect((await ask('send_mail', { to: 'ada@example.test' })).status).toBe('done');
  });

  it('shows a request an ask rule matches, and no standing grant answers it then', async () => {
    const policy = createApprovalPolicy({ rules: [rule('ask-big', 'ask', ['pay'], { when: [{ pointer: '/amount', minimum: 100 }] })] });
    const { confirmations, runs, ask } = setup(policy);
    confirmations.grants.allow('pay');
    const small = await ask('pay', { amount: 5 });
    expect(small.status).toBe('done');
    expect(runs[0]!.context.decidedBy).toMatchObject({ by: 'rule', origin: 'grant' });
    const big = ask('pay', { amount: 500 });
    const view = await shown(confirmations);
    expect(view.arguments).toEqual({ amount: 500 });
    confirmations.deny('no');
    expect((await big).status).toBe('denied');
  });

  it('in shadow mode reports what it would decide and still asks a person', async () => {
    const onDecision = vi.fn();
    const policy = createApprovalPolicy({ rules: [rule('no-rm', 'deny', ['shell'], { when: [{ pointer: '/command', command: { program: 'rm' } }] })], mode: 'shadow', onDecision });
    const { confirmations, ask } = setup(policy);
    const outcome = ask('shell', { command: 'rm -rf build' });
    const view = await shown(confirmations);
    expect(view.toolName).toBe('shell');
    expect(onDecision).toHaveBeenCalledTimes(1);
    const report = onDecision.mock.calls[0]![0] as PolicyDecisionReport;
    expect(report).toMatchObject({ mode: 'shadow', acted: false, result: { decision: 'deny', ruleId: 'no-rm' } });
    expect(report.request.toolName).toBe('shell');
    confirmations.approve();
    expect((await outcome).status).toBe('done');
  });

  it('never allows a high-risk tool automatically, even when the evaluation function says allow', async () => {
    const onError = vi.fn();
    // An evaluation of the app's own that ignores risk: the controller still asks a person.
    const policy: ApprovalPolicy = { rules: [rule('all', 'allow', ['*'])], evaluate: () => ({ decision: 'allow', ruleId: 'all', why: 'yes' }) };
    const { confirmations, runs, ask } = setup(policy, { onError });
    const outcome = ask('deploy', { env: 'prod' }, high);
    const view = await shown(confirmations);
    expect(view.toolName).toBe('deploy');
    expect(runs).toHaveLength(0);
    expect(onError.mock.calls.map((c) => c[2])).toContain('policy-refused');
    confirmations.deny();
    await outcome;
    // And `createApprovalPolicy` refuses such a rule when it is made, with the reason.
    expect(() => createApprovalPolicy({ rules: [rule('deploy', 'allow', ['deploy'])], describe: () => high })).toThrow(/high-risk tool is never allowed automatically/);
  });

  it('uses up a once rule after it has answered one request', async () => {
    const policy = createApprovalPolicy({ rules: [rule('one-pass', 'allow', ['pay'], { scope: { kind: 'once' } })] });
    const { confirmations, runs, ask } = setup(policy);
    expect((await ask('pay', { amount: 1 })).status).toBe('done');
    expect(runs[0]!.context.decidedBy).toMatchObject({ by: 'rule', ruleId: 'one-pass' });
    const second = ask('pay', { amount: 2 });
    const view = await shown(confirmations);
    expect(view.arguments).toEqual({ amount: 2 });
    confirmations.deny();
    await second;
    expect(runs).toHaveLength(1);
  });

  it('uses up a once rule kept beside the grants: it is dropped from them', async () => {
    const policy = createApprovalPolicy();
    const { confirmations, ask } = setup(policy);
    confirmations.grants.keepRule(rule('kept-once', 'deny', ['pay'], { scope: { kind: 'once' }, origin: 'person' }));
    expect((await ask('pay', { amount: 1 })).status).toBe('denied');
    expect(confirmations.grants.getState().rules).toEqual([]);
  });

  it('stops an until rule at its time, by the controller clock', async () => {
    const clock = createManualClock({ start: 1_000 });
    const policy = createApprovalPolicy({ rules: [rule('hour', 'allow', ['pay'], { scope: { kind: 'until', until: 1_000 + 3_600_000 } })] });
    const { confirmations, ask } = setup(policy, { clock });
    expect((await ask('pay', { amount: 1 })).status).toBe('done');
    await clock.advance(3_600_000);
    const late = ask('pay', { amount: 2 });
    await shown(confirmations);
    confirmations.deny();
    expect((await late).status).toBe('denied');
  });

  it('answers by a turn rule only within its turn', async () => {
    const policy = createApprovalPolicy({ rules: [rule('turn-1', 'allow', ['pay'], { scope: { kind: 'turn', turnId: 't1' } })] });
    const { confirmations, ask } = setup(policy);
    expect((await ask('pay', { amount: 1 }, low, 't1')).status).toBe('done');
    const other = ask('pay', { amount: 1 }, low, 't2');
    await shown(confirmations);
    confirmations.deny();
    expect((await other).status).toBe('denied');
  });

  it('asks a person when the evaluation throws, and says so', async () => {
    const onError = vi.fn();
    const policy: ApprovalPolicy = {
      rules: [],
      evaluate: () => {
        throw new Error('broken');
      },
    };
    const { confirmations, ask } = setup(policy, { onError });
    const outcome = ask('pay', { amount: 1 });
    await shown(confirmations);
    expect(onError.mock.calls.map((c) => c[2])).toContain('policy-threw');
    confirmations.deny();
    await outcome;
  });

  it("marks the server gate's call answered by the rule (by, id, label) and sends the answer automatic", async () => {
    const session = createScriptedSession();
    const store = createToolStreamStore();
    session.subscribe((event) => store.getState().dispatch(event));
    const confirmations = createConfirmationController({
      policy: createApprovalPolicy({ rules: [rule('no-prod', 'deny', ['deploy_service'], { label: 'Never prod', when: [{ pointer: '/env', equals: 'prod' }] }), rule('staging', 'allow', ['deploy_service'])] }),
    });
    const stop = connectApprovalGate(session, confirmations, { calls: store });
    for (const id of ['d1', 'd2']) for (const event of callEvents(id, { name: 'deploy_service', arguments: {}, outcome: 'open' })) session.emit(event);
    session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'd1', turnId: 't1', name: 'deploy_service', arguments: { env: 'prod' }, risk: 'medium' });
    const denied = await session.waitForMessage('tool.approval');
    expect(denied).toMatchObject({ approved: false, decision: 'deny', automatic: true, reason: 'denied by rule no-prod' });
    session.emit({ type: 'tool.approval-request', requestId: 'r2', callId: 'd2', turnId: 't1', name: 'deploy_service', arguments: { env: 'staging' }, risk: 'medium' });
    await until(confirmations, (state) => state.last?.requestId !== undefined && state.last.outcome.status === 'done');
    await settleAll();
    expect(callOf(store.getState(), 'd1')).toMatchObject({ approval: 'denied', approvalBy: 'rule', approvalRuleId: 'no-prod', approvalRuleLabel: 'Never prod' });
    expect(callOf(store.getState(), 'd2')).toMatchObject({ approval: 'approved', approvalBy: 'rule', approvalRuleId: 'staging' });
    expect(callOf(store.getState(), 'd2')?.approvalRuleLabel).toBeUndefined();
    expect(session.sent.filter((m) => m.type === 'tool.approval').map((m) => [m['requestId'], m['approved'], m['automatic']])).toEqual([
      ['r1', false, true],
      ['r2', true, true],
    ]);
    stop();
  });

  it('takes the policy through createToolgate and offers it as approvals.policy', () => {
    const client = createToolgate({ policy: createApprovalPolicy({ rules: [rule('docs', 'allow', ['read_file'])] }) });
    expect(client.approvals.policy?.rules.map((r) => r.id)).toEqual(['docs']);
    expect(createToolgate().approvals.policy).toBeUndefined();
    client.close();
  });
});

describe('scoped grants from the dialog', () => {
  it('offers this tool for the turn, an hour and the session, and this argument value for an hour; none for a high-risk tool', async () => {
    const { confirmations, ask } = setup(createApprovalPolicy());
    void ask('send_mail', { to: 'ada@example.test', subject: 'Hi' }, low, 't1');
    const view = await shown(confirmations);
    const candidates = scopedGrantCandidates(view, 0);
    expect(candidates.map((c) => [c.scope, c.argument?.name])).toEqual([
      ['turn', undefined],
      ['hour', undefined],
      ['session', undefined],
      ['hour', 'to'],
      ['hour', 'subject'],
    ]);
    expect(candidates[3]!.rule).toMatchObject({ decision: 'allow', tools: ['send_mail'], when: [{ pointer: '/to', equals: 'ada@example.test' }], scope: { kind: 'until', until: 3_600_000 }, origin: 'person' });
    confirmations.deny();
    void ask('deploy', { env: 'prod' }, high);
    expect(scopedGrantCandidates(await shown(confirmations), 0)).toEqual([]);
    confirmations.deny();
  });

  it('previews which waiting requests each would answer, then answers exactly those once kept', async () => {
    const { confirmations, runs, ask } = setup(createApprovalPolicy());
    const first = ask('send_mail', { to: 'ada@example.test' });
    const toAda = ask('send_mail', { to: 'ada@example.test' });
    const toBob = ask('send_mail', { to: 'bob@example.test' });
    const other = ask('pay', { amount: 1 });
    await until(confirmations, (s) => s.current?.status === 'reviewing' && s.queue.length === 3 && s.queue.every((v) => v.fingerprint !== null));
    const view = confirmations.getState().current!;
    const candidates = scopedGrantCandidates(view, Date.now());
    const session = candidates.find((c) => c.scope === 'session');
    const toCandidate = candidates.find((c) => c.argument?.name === 'to');
    expect(confirmations.previewRule(session!.rule).map((v) => v.arguments)).toEqual([{ to: 'ada@example.test' }, { to: 'bob@example.test' }]);
    expect(confirmations.previewRule(toCandidate!.rule).map((v) => v.arguments)).toEqual([{ to: 'ada@example.test' }]);
    expect(confirmations.allowByRule(toCandidate!.rule)).toBe(true);
    expect((await first).status).toBe('done');
    expect((await toAda).status).toBe('done');
    expect(runs.map((r) => r.context.decidedBy?.by)).toEqual(['person', 'rule']);
    const next = await shown(confirmations);
    expect(next.arguments).toEqual({ to: 'bob@example.test' });
    confirmations.deny();
    await toBob;
    await shown(confirmations);
    confirmations.deny();
    await other;
  });

  it('keeps no scoped grant without a policy, or one that would not answer the request it came from', async () => {
    const bare = setup(undefined);
    void bare.ask('send_mail', { to: 'ada@example.test' });
    const view = await shown(bare.confirmations);
    const [candidate] = scopedGrantCandidates(view, Date.now());
    expect(bare.confirmations.previewRule(candidate!.rule)).toEqual([]);
    expect(bare.confirmations.allowByRule(candidate!.rule)).toBe(false);
    const withPolicy = setup(createApprovalPolicy(), { onError: () => {} });
    void withPolicy.ask('send_mail', { to: 'ada@example.test' });
    await shown(withPolicy.confirmations);
    expect(withPolicy.confirmations.allowByRule(rule('elsewhere', 'allow', ['send_mail'], { when: [{ pointer: '/to', equals: 'bob@example.test' }] }))).toBe(false);
    expect(withPolicy.confirmations.grants.getState().rules).toEqual([]);
  });
});

describe('rules survive a reload', () => {
  it('keeps the scoped grants with the standing grants, as plain data, and a new controller answers by them', async () => {
    const before = setup(createApprovalPolicy());
    void before.ask('send_mail', { to: 'ada@example.test' });
    const view = await shown(before.confirmations);
    const kept = scopedGrantCandidates(view, Date.now()).find((c) => c.scope === 'session')!.rule;
    expect(before.confirmations.allowByRule(kept)).toBe(true);
    const saved: unknown = JSON.parse(JSON.stringify(before.confirmations.grants.save()));
    const grants = createToolGrants({ saved });
    expect(grants.getState().rules).toEqual([kept]);
    const after = createConfirmationController({ grants, policy: createApprovalPolicy() });
    const outcome = await after.request({ toolName: 'send_mail', arguments: { to: 'cy@example.test' }, descriptor: low, onApprove: () => null });
    expect(outcome.status).toBe('done');
    await settleAll();
  });

  it('survives a reload through the session persistence: the next page restores the kept rule with the grants, and it answers there', async () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    persistence.saveResume({ sessionId: 's1', token: 't', lastSeq: 0 });
    const before = createConfirmationController({ policy: createApprovalPolicy() });
    const stop = keepGrants(persistence, before.grants);
    const first = before.request({ toolName: 'send_mail', arguments: { to: 'ada@example.test' }, descriptor: low, onApprove: () => null });
    const view = await shown(before);
    const kept = { ...scopedGrantCandidates(view, Date.now()).find((c) => c.scope === 'session')!.rule, label: 'send_mail for this session' };
    expect(before.allowByRule(kept)).toBe(true);
    await first;
    stop();
    persistence.flush();
    // The next page: a new persistence over the same storage, a new controller, the grants given back.
    const next = createSessionPersistence({ storage: storage.copy() });
    const after = createConfirmationController({ policy: createApprovalPolicy() });
    keepGrants(next, after.grants);
    await until(after, () => after.grants.getState().rules.length === 1);
    expect(after.grants.getState().rules).toEqual([kept]);
    const runs: ApprovalContext[] = [];
    const outcome = await after.request({ toolName: 'send_mail', arguments: { to: 'cy@example.test' }, descriptor: low, onApprove: (_args, context) => void runs.push(context) });
    expect(outcome.status).toBe('done');
    expect(runs[0]!.decidedBy).toMatchObject({ by: 'rule', ruleId: kept.id, label: 'send_mail for this session' });
  });

  it('refuses a saved rule that is not shaped as one, and names it', () => {
    const onError = vi.fn();
    const grants = createToolGrants({ onError, saved: { version: 1, grants: [], rules: [{ id: 'x', decision: 'allow' }, rule('ok', 'deny', ['pay'])] } });
    expect(grants.getState().rules.map((r) => r.id)).toEqual(['ok']);
    expect(onError.mock.calls[0]![0]).toMatch(/rules\[0\] is not a policy rule/);
  });

  it('reads a standing grant as the rule it is', () => {
    const grants = createToolGrants({ now: () => 1 });
    const grant = grants.allow('search_docs');
    const asRule = ruleOfGrant(grant);
    expect(asRule).toEqual({ id: grant.id, decision: 'allow', tools: ['search_docs'], scope: { kind: 'session' }, origin: 'grant', label: 'search_docs for this session', madeAt: 1 });
    // The store keeps the grant as exactly that rule.
    expect(grants.getState().rules).toEqual([asRule]);
    expect(evaluatePolicy([asRule], { toolName: 'search_docs', arguments: {}, descriptor: low, now: 0 })).toMatchObject({ decision: 'allow', ruleId: grant.id });
  });
});
