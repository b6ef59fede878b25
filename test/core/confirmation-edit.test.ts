/**
 * Edit, then approve: an editable request can be edited; the edit is checked (JSON, the schema,
 * the request's own validator), gets its own fingerprint, and is exactly what runs. An invalid
 * edit keeps the person in the editor with the field's issue, and nothing is approved.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, type ApprovalContext, type JsonValue } from 'toolgate/core';
import { fingerprintJson } from 'toolgate/json';
import { settleAll, shown } from './confirmation-helpers';

const schema = {
  type: 'object',
  properties: { to: { type: 'string' }, amount: { type: 'number' } },
  required: ['to', 'amount'],
};

function setup(editable: Parameters<ReturnType<typeof createConfirmationController>['request']>[0]['editable'] = { schema }) {
  const confirmations = createConfirmationController();
  const onApprove = vi.fn((_args: JsonValue, _context: ApprovalContext) => 'sent');
  const outcome = confirmations.request({ toolName: 'transfer', arguments: { to: 'bob', amount: 500 }, descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true }, editable, onApprove });
  return { confirmations, onApprove, outcome };
}

describe('edit, then approve', () => {
  it('runs exactly the edited snapshot, under a fingerprint of its own, and says it was edited', async () => {
    const { confirmations, onApprove, outcome } = setup();
    const proposed = await shown(confirmations);
    expect(proposed.can.edit).toBe(true);
    expect(confirmations.edit()).toBe(true);
    expect(confirmations.getState().current).toMatchObject({ status: 'editing', can: { approve: false, deny: true } });
    expect(confirmations.approve()).toBe(false);
    expect(await confirmations.submitEdit({ to: 'bob', amount: 50 })).toEqual({ ok: true });
    const edited = await shown(confirmations);
    expect(edited).toMatchObject({ edited: true, arguments: { to: 'bob', amount: 50 }, original: { to: 'bob', amount: 500 } });
    expect(edited.fingerprint?.hex).toBe((await fingerprintJson({ amount: 50, to: 'bob' })).hex);
    expect(edited.fingerprint?.hex).not.toBe(proposed.fingerprint?.hex);
    expect(Object.isFrozen(edited.arguments)).toBe(true);
    expect(confirmations.approve()).toBe(true);
    const done = await outcome;
    expect(done).toMatchObject({ status: 'done', output: 'sent', fingerprint: edited.fingerprint?.hex });
    expect(onApprove).toHaveBeenCalledTimes(1);
    const [args, context] = onApprove.mock.calls[0]!;
    expect(args).toBe(edited.arguments);
    expect(context).toMatchObject({ edited: true, original: { to: 'bob', amount: 500 }, decidedBy: { by: 'person' }, automatic: false });
  });

  it('keeps the person in the editor with the field’s issue when the edit breaks the schema, and approves nothing', async () => {
    const { confirmations, onApprove } = setup();
    await shown(confirmations);
    confirmations.edit();
    const result = await confirmations.submitEdit({ to: 'bob', amount: 'fifty' });
    expect(result).toEqual({ ok: false, issues: [{ path: ['amount'], message: 'expected number, got string' }] });
    expect(confirmations.getState().current).toMatchObject({ status: 'editing', issues: [{ path: ['amount'] }], arguments: { amount: 500 } });
    expect(confirmations.approve()).toBe(false);
    await settleAll();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('refuses a draft that is not JSON (a function, a non-finite number, a lone surrogate)', async () => {
    const { confirmations } = setup(true);
    await shown(confirmations);
    confirmations.edit();
    for (const draft of [{ f: () => 1 }, { n: Number.POSITIVE_INFINITY }, { s: '\ud800' }]) {
      const result = await confirmations.submitEdit(draft);
      expect(result.ok).toBe(false);
      expect(confirmations.getState().current?.status).toBe('editing');
    }
  });

  it('approves what the request’s own validator gives (defaults filled in), and shows that before approval', async () => {
    const validate = vi.fn((draft: JsonValue) => ({ ok: true as const, value: { currency: 'EUR', ...(draft as object) } }));
    const { confirmations, onApprove } = setup({ schema, validate });
    await shown(confirmations);
    confirmations.edit();
    await confirmations.submitEdit({ to: 'ann', amount: 5 });
    const view = await shown(confirmations);
    expect(view.arguments).toEqual({ currency: 'EUR', to: 'ann', amount: 5 });
    confirmations.approve();
    await settleAll();
    expect(onApprove.mock.calls[0]![0]).toEqual({ currency: 'EUR', to: 'ann', amount: 5 });
  });

  it('shows the validator’s issues at their paths, and treats a validator that throws as an issue, not a crash', async () => {
    const validate = vi
      .fn()
      .mockReturnValueOnce({ ok: false, issues: [{ path: [{ key: 'amount' }], message: 'must be at most 100' }] })
      .mockImplementationOnce(() => {
        throw new Error('validator broke');
      });
    const { confirmations } = setup({ validate });
    await shown(confirmations);
    confirmations.edit();
    expect(await confirmations.submitEdit({ to: 'bob', amount: 500 })).toEqual({ ok: false, issues: [{ path: ['amount'], message: 'must be at most 100' }] });
    const thrown = await confirmations.submitEdit({ to: 'bob', amount: 5 });
    expect(thrown.ok).toBe(false);
    expect(JSON.stringify(thrown)).toContain('validator broke');
    expect(confirmations.getState().current?.status).toBe('editing');
  });

  it('lets an answer of the validator that comes after a deny change nothing', async () => {
    let release!: (value: { ok: true }) => void;
    const validate = () => new Promise<{ ok: true }>((resolve) => (release = resolve));
    const { confirmations, onApprove, outcome } = setup({ validate });
    await shown(confirmations);
    confirmations.edit();
    const pending = confirmations.submitEdit({ to: 'eve', amount: 1 });
    expect(confirmations.getState().current?.status).toBe('revising');
    expect(confirmations.deny('changed my mind')).toBe(true);
    release({ ok: true });
    expect((await pending).ok).toBe(false);
    expect(await outcome).toEqual({ status: 'denied', reason: 'changed my mind' });
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('reads as unedited again when the edit goes back to the proposed arguments', async () => {
    const { confirmations, onApprove } = setup();
    const proposed = await shown(confirmations);
    confirmations.edit();
    await confirmations.submitEdit({ to: 'bob', amount: 50 });
    await shown(confirmations);
    confirmations.edit();
    await confirmations.submitEdit({ amount: 500, to: 'bob' });
    const back = await shown(confirmations);
    expect(back.edited).toBe(false);
    expect(back.arguments).toBe(proposed.original);
    expect(back.fingerprint?.hex).toBe(proposed.fingerprint?.hex);
    confirmations.approve();
    await settleAll();
    expect(onApprove.mock.calls[0]![1].edited).toBe(false);
  });

  it('offers no editor for a request that is not editable', async () => {
    const { confirmations } = setup(false);
    const view = await shown(confirmations);
    expect(view.editable).toBe(false);
    expect(view.can.edit).toBe(false);
    expect(confirmations.edit()).toBe(false);
    expect(await confirmations.submitEdit({ to: 'x', amount: 1 })).toMatchObject({ ok: false });
  });

  it('leaves the editor unchanged with cancelEdit', async () => {
    const { confirmations } = setup();
    const proposed = await shown(confirmations);
    confirmations.edit();
    expect(confirmations.cancelEdit()).toBe(true);
    expect(confirmations.getState().current).toMatchObject({ status: 'reviewing', edited: false, fingerprint: proposed.fingerprint });
  });
});
