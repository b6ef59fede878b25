/**
 * Standing grants in the flow: "Allow for this session" approves the request a person sees and
 * answers the others of its tool (queued and later), each bound to its own snapshot and
 * fingerprint and marked automatic; "Deny for this session" denies them; a high-risk tool, one
 * whose risk is not declared and one confirmed every time never take an allow grant; revoking
 * stops a grant at once.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, type ApprovalContext, type JsonValue, type ToolDescriptor } from 'toolgate/core';
import { createToolGrants } from 'toolgate/policy';
import { fingerprintJson } from 'toolgate/json';
import { settleAll, shown, until } from './confirmation-helpers';

const medium: ToolDescriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true };
const high: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };

function setup() {
  const confirmations = createConfirmationController();
  const runs: { args: JsonValue; context: ApprovalContext }[] = [];
  const ask = (toolName: string, args: JsonValue, descriptor: Partial<ToolDescriptor> | undefined = medium) =>
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

describe('standing grants in the confirmation flow', () => {
  it('approves the shown request by the person, then answers the queued ones of that tool automatically, each with its own fingerprint', async () => {
    const { confirmations, runs, ask } = setup();
    const first = ask('send_invoice', { to: 'ann' });
    const second = ask('send_invoice', { to: 'bob' });
    const other = ask('delete_file', { path: 'a' });
    await shown(confirmations);
    expect(confirmations.getState().current?.can.allowForSession).toBe(true);
    expect(confirmations.allowForSession()).toBe(true);
    expect((await first).status).toBe('done');
    expect((await second).status).toBe('done');
    // The grant answers as the rule it is kept as.
    const grant = confirmations.grants.find('send_invoice')!;
    expect(runs.map((r) => [r.args, r.context.decidedBy, r.context.automatic])).toEqual([
      [{ to: 'ann' }, { by: 'person' }, false],
      [{ to: 'bob' }, { by: 'rule', ruleId: grant.id, decision: 'allow', origin: 'grant', label: 'send_invoice for this session' }, true],
    ]);
    expect(runs[1]!.context.fingerprint.hex).toBe((await fingerprintJson({ to: 'bob' })).hex);
    // The other tool is still asked.
    const view = await shown(confirmations);
    expect(view.toolName).toBe('delete_file');
    confirmations.deny();
    await other;
  });

  it('answers a later request of the tool without showing it, until the grant is revoked', async () => {
    const { confirmations, runs, ask } = setup();
    const grant = confirmations.grants.allow('search_docs');
    const later = await ask('search_docs', { q: 'keys' });
    expect(later.status).toBe('done');
    expect(runs[0]!.context).toMatchObject({ automatic: true, decidedBy: { by: 'rule', ruleId: grant.id, origin: 'grant' } });
    expect(confirmations.grants.revoke(grant.id)).toBe(true);
    void ask('search_docs', { q: 'again' });
    const asked = await shown(confirmations);
    expect(asked).toMatchObject({ toolName: 'search_docs', status: 'reviewing', decidedBy: null });
    expect(runs).toHaveLength(1);
  });

  it('never lets an allow grant answer a high-risk request, one whose risk is not declared, or one confirmed every time', async () => {
    const { confirmations, runs, ask } = setup();
    confirmations.grants.allow('transfer');
    void ask('transfer', { amount: 1 }, high);
    const risky = await shown(confirmations);
    expect(risky.can.allowForSession).toBe(false);
    expect(risky.grantRefusal).toBe('high-risk');
    expect(confirmations.allowForSession()).toBe(false);
    confirmations.deny();
    void ask('transfer', { amount: 2 }, { effect: 'write' });
    expect((await shown(confirmations)).grantRefusal).toBe('risk-not-declared');
    confirmations.deny();
    void ask('transfer', { amount: 3 }, { ...medium, confirmEveryTime: true });
    expect((await shown(confirmations)).grantRefusal).toBe('every-time');
    await settleAll();
    expect(runs).toHaveLength(0);
  });

  it('denies the shown request and every other of its tool for the session, with a reason the model can hear', async () => {
    const { confirmations, runs, ask } = setup();
    const first = ask('send_invoice', { to: 'ann' });
    const second = ask('send_invoice', { to: 'bob' });
    await shown(confirmations);
    expect(confirmations.denyForSession('not today')).toBe(true);
    expect(await first).toEqual({ status: 'denied', reason: 'not today' });
    expect(await second).toEqual({ status: 'denied', reason: 'send_invoice is denied for this session' });
    expect(await ask('send_invoice', { to: 'cy' })).toMatchObject({ status: 'denied' });
    expect(runs).toHaveLength(0);
    expect(confirmations.grants.find('send_invoice')?.decision).toBe('deny');
  });

  it('answers nothing with a grant revoked before the request’s fingerprint was ready', async () => {
    const { confirmations, runs, ask } = setup();
    const grant = confirmations.grants.allow('search_docs');
    void ask('search_docs', { q: 'x' });
    // Revoked in the same tick: the fingerprint is still being computed.
    confirmations.grants.revoke(grant.id);
    await shown(confirmations);
    expect(runs).toHaveLength(0);
  });

  it('leaves an edited request to the person who edited it', async () => {
    const confirmations = createConfirmationController();
    const onApprove = vi.fn(() => null);
    void confirmations.request({ toolName: 'send_invoice', arguments: { to: 'ann' }, descriptor: medium, editable: true, onApprove });
    await shown(confirmations);
    confirmations.edit();
    await confirmations.submitEdit({ to: 'bea' });
    await shown(confirmations);
    confirmations.grants.allow('send_invoice');
    await settleAll();
    expect(onApprove).not.toHaveBeenCalled();
    expect(confirmations.getState().current?.status).toBe('reviewing');
  });

  it('takes grants restored from saved data, and answers by them', async () => {
    const saved = createToolGrants();
    saved.allow('search_docs');
    const confirmations = createConfirmationController({ grants: createToolGrants({ saved: JSON.parse(JSON.stringify(saved.save())) }) });
    const outcome = await confirmations.request({ toolName: 'search_docs', arguments: {}, descriptor: medium, onApprove: () => 'ok' });
    expect(outcome.status).toBe('done');
    await until(confirmations, (state) => state.current === null);
  });
});
